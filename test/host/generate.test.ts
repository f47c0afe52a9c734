import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { componentDefinitions, componentRegistry } from '../../host/components/registry.js';
import { componentExample, generateConfig, GenerateError, type Required } from '../../host/generate.js';
import type { RawConfig } from '../../host/config/load.js';
import { validateConfig } from '../../host/config/schema.js';

/** A loaded configuration from one parsed table, as loadConfig would give it. */
function raw(table: Record<string, unknown>): RawConfig {
  const sections = Object.fromEntries(
    ['sources', 'transforms', 'sinks', 'enrichment_tables', 'secret'].map((section) => [
      section,
      new Map(
        Object.entries((table[section] ?? {}) as Record<string, Record<string, unknown>>).map(([id, t]) => [
          id,
          { id, file: 'generated', table: t },
        ]),
      ),
    ]),
  ) as unknown as RawConfig['sections'];
  const global = Object.fromEntries(Object.entries(table).filter(([key]) => !(key in sections)));
  return { global, globalOrigins: new Map(), sections, tests: [], files: ['generated'], secrets: [] };
}

const PARSERS: Record<'yaml' | 'toml' | 'json', (text: string) => unknown> = {
  yaml: parseYaml,
  toml: parseToml,
  json: JSON.parse,
};

/** Top-level options of a component type that have a default (a generated config writes them). */
function defaulted(options: z.ZodType): string[] {
  const object = (options instanceof z.ZodDiscriminatedUnion ? options.options[0] : options) as z.ZodObject;
  return Object.entries(object.shape)
    .filter(([, field]) => {
      const parsed = (field as z.ZodType).safeParse(undefined);
      return parsed.success && parsed.data !== undefined;
    })
    .map(([key]) => key);
}

for (const format of ['yaml', 'toml', 'json'] as const) {
  test(`every component type generates a ${format} config whose defaults validate`, async () => {
    const registry = await componentRegistry();
    // `svc generate` makes sources, transforms and sinks (as Vector's does), not enrichment tables.
    const generated = (await componentDefinitions()).filter((definition) => definition.kind !== 'enrichment_table');
    for (const { kind, type, options } of generated) {
      const expression = kind === 'source' ? type : kind === 'transform' ? `/${type}` : `//${type}`;
      const table = PARSERS[format](await generateConfig(expression, { fragment: false, format })) as Record<
        string,
        unknown
      >;
      const { errors } = validateConfig(raw(table), registry, { allowEmpty: true });
      // What may be wrong is what only the user can fill in: required options and the ones they imply.
      for (const key of [...defaulted(options), 'healthcheck', 'buffer', 'inputs', 'type', 'data_dir']) {
        for (const error of errors) assert.not.ok(error.includes(`option "${key}`), `${type}: ${error}`);
      }
    }
  });
}

test('a transform and a sink read every source when nothing is between them', async () => {
  const table = parseYaml(await generateConfig('a:file,b:exec/remap', { fragment: true, format: 'yaml' }));
  assert.equal(table.transforms.transform0.inputs, ['a', 'b']);
});

test('options: defaults (nested too), examples, Required markers; optional ones left out', () => {
  const example = componentExample(
    z.strictObject({
      command: z.array(z.string()).meta({ examples: [['echo', 'hi']] }),
      mode: z.enum(['a', 'b']),
      nested: z.strictObject({
        depth: z.number().default(2),
        name: z.string(),
        kind: z.union([z.literal('x'), z.literal('y')]),
      }),
      tuned: z.strictObject({ level: z.number().default(3) }).prefault({}),
      maybe: z.string().optional(),
      count: z.number().int().default(7),
    }),
  );
  assert.equal(Object.keys(example), ['command', 'mode', 'nested', 'tuned', 'count']);
  assert.equal(example.command, ['echo', 'hi']);
  assert.is(example.mode, 'a');
  const nested = example.nested as Record<string, unknown>;
  assert.is(nested.depth, 2);
  assert.is((nested.name as Required).expects, 'string');
  assert.is((nested.kind as Required).expects, '"x" or "y"');
  assert.equal(example.tuned, { level: 3 });
  assert.is(example.count, 7);
});

test('problems are collected: duplicate names, empty names, too many stages', async () => {
  try {
    await generateConfig('a:file,a:exec,:file/x/y/z', { fragment: true, format: 'yaml' });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, GenerateError);
    assert.equal((error as GenerateError).errors, [
      'a pipeline has at most three stages (sources/transforms/sinks), got 4: "a:file,a:exec,:file/x/y/z"',
      'failed to generate source "a:exec": the name "a" is used twice',
      'failed to generate source ":file": the name before ":" is empty',
      'failed to generate transform "x": unknown transform type "x"',
      'failed to generate sink "y": unknown sink type "y"',
    ]);
  }
});

test.run();
