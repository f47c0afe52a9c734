import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FUNCTIONS, functionNames, lookupFunction } from '../../../compiler/functions/index.js';
import { bitsOf } from '../../../compiler/types/kind.js';

// Compiled to dist-test/test/compiler/functions/: four levels up is the project root, with shared/ beside it.
const root = new URL('../../../../', import.meta.url);
const conformance = new URL('../shared/conformance/', root);

interface Signature {
  name: string;
  arguments: Array<{ name: string; required: boolean; type: string[]; default?: string; enum?: string[] }>;
}
// Without ../shared/conformance (a clone elsewhere) the checks against upstream's signatures are skipped.
const hasConformance = existsSync(fileURLToPath(conformance));
if (!hasConformance) console.log(`  note: ${fileURLToPath(conformance)} not found; upstream signatures not checked`);
const signatures: Signature[] = hasConformance
  ? JSON.parse(readFileSync(new URL('signatures.json', conformance), 'utf8'))
  : [];
const exampleCounts = new Map<string, number>();
for (const line of hasConformance ? readFileSync(new URL('functions.jsonl', conformance), 'utf8').split('\n') : []) {
  if (!line) continue;
  const name = (JSON.parse(line) as { function: string }).function;
  exampleCounts.set(name, (exampleCounts.get(name) ?? 0) + 1);
}

/** Upstream names whose definition file carries the spec's neutral name. */
const SEED_NAMES: Record<string, string> = {
  parse_apache_log: 'parse_websrv1_log',
  parse_nginx_log: 'parse_websrv2_log',
  parse_aws_alb_log: 'parse_cloud_alb_log',
  parse_aws_cloudwatch_log_subscription_message: 'parse_cloud_log_subscription_message',
  parse_aws_vpc_flow_log: 'parse_cloud_vpc_flow_log',
  parse_influxdb: 'parse_tsdb',
  match_datadog_query: 'match_ext_query',
};
const fileNameOf = (upstream: string) => SEED_NAMES[upstream] ?? upstream;
const defined = signatures.filter((s) =>
  existsSync(fileURLToPath(new URL(`compiler/functions/${fileNameOf(s.name)}.ts`, root))),
);

test('the registry is not empty and every upstream function with a file is found', () => {
  assert.ok(FUNCTIONS.length > 200);
  if (hasConformance) assert.ok(defined.length > 200);
  for (const sig of defined) {
    const def = lookupFunction(sig.name);
    assert.ok(def, `${sig.name} does not resolve`);
    assert.is(def.name, fileNameOf(sig.name), `${sig.name} resolves to ${def.name}`);
  }
});

test('names and aliases are unique across the registry', () => {
  const seen = new Map<string, string>();
  for (const def of FUNCTIONS) {
    for (const name of [def.name, ...def.aliases]) {
      assert.not.ok(seen.has(name), `${name} is claimed by ${seen.get(name)} and ${def.name}`);
      seen.set(name, def.name);
    }
  }
  assert.equal(new Set(functionNames()), new Set(seen.keys()));
});

test('seed functions answer to their upstream name', () => {
  for (const [upstream, seed] of Object.entries(SEED_NAMES)) {
    const def = lookupFunction(seed);
    if (!def) continue;
    assert.ok(def.aliases.includes(upstream), `${seed} lacks alias ${upstream}`);
    assert.is(lookupFunction(upstream), def);
  }
  assert.is(lookupFunction('no_such_function'), undefined);
});

test('parameters are well-formed', () => {
  for (const def of FUNCTIONS) {
    const names = def.parameters.map((p) => p.name);
    assert.is(new Set(names).size, names.length, `${def.name} repeats a parameter name`);
    for (const p of def.parameters) {
      const where = `${def.name}(${p.name})`;
      assert.ok(p.kinds !== 0, `${where} accepts no kind`);
      if (p.required) assert.is(p.default, undefined, `${where} is required but has a default`);
      if (p.enum) {
        assert.ok(p.enum.length > 0, `${where} has an empty enum`);
        assert.is(new Set(p.enum).size, p.enum.length, `${where} repeats an enum value`);
        if (p.default !== undefined)
          assert.ok(p.enum.includes(p.default), `${where} default ${p.default} is not in its enum`);
      }
    }
  }
});

/** Enum values upstream's own examples use beyond what its signature lists (function → parameter → values). */
const EXAMPLE_ONLY_ENUM_VALUES: Record<string, Record<string, string[]>> = {
  to_unix_timestamp: { unit: ['microseconds'] }, // `to_unix_timestamp(..., unit: "microseconds")` is documented
};

test('parameters match the upstream signatures exactly', () => {
  for (const sig of defined) {
    const def = lookupFunction(sig.name)!;
    const actual = def.parameters.map((p) => ({
      // Order is ours to choose (diagnostics list values as upstream's source does); the set must match.
      name: p.name,
      required: p.required,
      kinds: p.kinds,
      default: p.default,
      enum: p.enum && [...p.enum].sort(),
    }));
    const expected = sig.arguments.map((a) => {
      const extra = EXAMPLE_ONLY_ENUM_VALUES[sig.name]?.[a.name] ?? [];
      const values = a.enum && [...a.enum, ...extra].sort();
      return { name: a.name, required: a.required, kinds: bitsOf(a.type), default: a.default, enum: values };
    });
    assert.equal(actual, expected, sig.name);
  }
});

test('every upstream example is carried, each with one expected outcome', () => {
  for (const sig of defined) {
    const def = lookupFunction(sig.name)!;
    // A function upstream documents without examples carries its own.
    if (exampleCounts.has(sig.name))
      assert.is(def.examples.length, exampleCounts.get(sig.name), `${sig.name} example count`);
    for (const example of def.examples) {
      assert.ok((example.returns === undefined) !== (example.raises === undefined), `${sig.name}: ${example.title}`);
    }
  }
});

test.run();
