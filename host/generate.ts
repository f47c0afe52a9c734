// `svc generate`: a configuration for a pipeline expression such as `file,exec/remap/console`, each component
// written with the defaults of its schema, wired as Vector wires them (checklist A.1).
//
// An option without a default is left out when optional. A required one takes the schema's example when it
// carries one (`.meta({ examples: [...] })`), and a required choice its first value (as Vector's examples:
// exec `mode: scheduled`, sinks' `codec: json`, socket `mode: tcp`); otherwise it is written as a
// commented-out line naming what it expects (YAML, TOML), or left out (JSON, which has no comments), so that
// validating the file points at it.

import { stringify as toToml } from 'smol-toml';
import { stringify as toYaml } from 'yaml';
import { z } from 'zod';
import { componentRegistry } from './components/registry.js';
import { healthcheckSchema, sinkBufferSchema } from './config/common.js';
import { didYouMean } from './config/errors.js';
import { globalSchema } from './config/global.js';
import type { ConfigFormat } from './config/load.js';
import type { OptionsSchema } from './config/schema.js';

export const GENERATE_FORMATS: readonly ConfigFormat[] = ['yaml', 'toml', 'json'];

export interface GenerateOptions {
  /** Leave out the global options (`data_dir`). */
  fragment: boolean;
  format: ConfigFormat;
}

export class GenerateError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('\n'));
  }
}

/** A required option without a default or example: written as a comment naming what it expects. */
export class Required {
  constructor(readonly expects: string) {}
}

const OMIT = Symbol('omit');

type Schema = z.core.$ZodType;
type Def = Record<string, unknown> & { type: string };

const defOf = (schema: Schema) => schema._zod.def as unknown as Def;

/** The first example the schema carries, if any. */
function exampleOf(schema: Schema): unknown {
  const meta = (schema as unknown as { meta?: () => Record<string, unknown> | undefined }).meta?.();
  const examples = meta?.examples;
  return Array.isArray(examples) && examples.length > 0 ? examples[0] : meta?.example;
}

/** What a value of the schema looks like, for the comment of a required option. */
function describe(schema: Schema): string {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return describe(def.innerType as Schema);
    case 'pipe':
      return describe((defOf(def.in as Schema).type === 'transform' ? def.out : def.in) as Schema);
    case 'array':
      return `array of ${describe(def.element as Schema)}`;
    case 'object':
    case 'record':
      return 'table';
    case 'enum':
      return `one of ${Object.values(def.entries as Record<string, string>)
        .map((v) => JSON.stringify(v))
        .join(', ')}`;
    case 'literal':
      return (def.values as unknown[]).map((v) => JSON.stringify(v)).join(' or ');
    case 'union':
      return [...new Set((def.options as Schema[]).map(describe))].join(' or ');
    default:
      return def.type;
  }
}

/** The value an option gets in a generated config: its default, its example, or a Required marker. */
function exampleValue(schema: Schema): unknown {
  const example = exampleOf(schema);
  if (example !== undefined) return example;
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      return OMIT;
    case 'default':
    case 'prefault': {
      const parsed = (schema as z.ZodType).safeParse(undefined);
      return parsed.success ? parsed.data : exampleValue(def.innerType as Schema);
    }
    case 'nullable':
    case 'readonly':
    case 'catch':
      return exampleValue(def.innerType as Schema);
    case 'pipe':
      return exampleValue((defOf(def.in as Schema).type === 'transform' ? def.out : def.in) as Schema);
    case 'object':
      return exampleTable(def.shape as Record<string, Schema>);
    case 'enum':
      // As Vector's examples (exec `mode = "scheduled"`, sinks' `codec = "json"`): the first choice.
      return Object.values(def.entries as Record<string, string>)[0];
    case 'literal': {
      // A one-value literal (a union's discriminator) has only one thing it can be.
      const values = def.values as unknown[];
      return values.length === 1 ? values[0] : new Required(describe(schema));
    }
    default:
      return new Required(describe(schema));
  }
}

/**
 * A component's options as generated: defaults, examples, Required markers; optional ones left out. Options
 * told apart by a key (`mode`) are generated for the first alternative.
 */
export function componentExample(options: OptionsSchema): Record<string, unknown> {
  const object = options instanceof z.ZodDiscriminatedUnion ? options.options[0]! : options;
  return exampleTable((object as z.ZodObject).shape as Record<string, Schema>);
}

function exampleTable(shape: Record<string, Schema>): Record<string, unknown> {
  const table: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const value = exampleValue(field);
    if (value !== OMIT) table[key] = value;
  }
  return table;
}

const STAGES: ReadonlyArray<{ kind: 'source' | 'transform' | 'sink'; section: string; prefix: string }> = [
  { kind: 'source', section: 'sources', prefix: 'source' },
  { kind: 'transform', section: 'transforms', prefix: 'transform' },
  { kind: 'sink', section: 'sinks', prefix: 'sink' },
];

/** When a component has no upstream in the expression: Vector's placeholder id. */
const PLACEHOLDER_INPUT = 'component-id';

/**
 * The configuration for a pipeline expression: stages `sources/transforms/sinks` separated by `/`, components
 * of a stage by `,`, each `type` or `name:type`. Throws GenerateError listing every problem.
 */
export async function generateConfig(expression: string, options: GenerateOptions): Promise<string> {
  const stages =
    expression === ''
      ? []
      : expression.split('/').map((stage) =>
          stage
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== ''),
        );
  const errors: string[] = [];
  if (stages.length > STAGES.length)
    errors.push(
      `a pipeline has at most three stages (sources/transforms/sinks), got ${stages.length}: "${expression}"`,
    );
  const registry = await componentRegistry();
  const config: Record<string, unknown> = options.fragment
    ? {}
    : { data_dir: globalSchema.in.shape.data_dir.parse(undefined) };
  const names = { source: [] as string[], transform: [] as string[], sink: [] as string[] };
  const used = new Set<string>();
  STAGES.forEach(({ kind, section, prefix }, stage) => {
    const components: Record<string, unknown> = {};
    (stages[stage] ?? []).forEach((item, index) => {
      const colon = item.indexOf(':');
      const name = colon < 0 ? `${prefix}${index}` : item.slice(0, colon).trim();
      const type = colon < 0 ? item : item.slice(colon + 1).trim();
      if (name === '') {
        errors.push(`failed to generate ${kind} "${item}": the name before ":" is empty`);
        return;
      }
      if (used.has(name)) {
        errors.push(`failed to generate ${kind} "${item}": the name "${name}" is used twice`);
        return;
      }
      const schema = registry.get(kind, type);
      if (!schema) {
        errors.push(
          `failed to generate ${kind} "${item}": unknown ${kind} type "${type}"${didYouMean(type, registry.types(kind))}`,
        );
        return;
      }
      used.add(name);
      names[kind].push(name);
      const inputs = kind === 'source' ? undefined : upstream(kind, names);
      components[name] = {
        type,
        ...(inputs ? { inputs } : {}),
        ...componentExample(schema.options),
        ...(kind === 'sink'
          ? { healthcheck: healthcheckSchema.parse({}), buffer: sinkBufferSchema.parse(undefined) }
          : {}),
      };
    });
    if (Object.keys(components).length > 0) config[section] = components;
  });
  if (errors.length > 0) throw new GenerateError(errors);
  return serialize(config, options.format);
}

/**
 * Vector's wiring: the first transform reads every source, each later transform its predecessor; sinks read
 * the last transform, else every source.
 */
function upstream(kind: 'transform' | 'sink', names: Record<'source' | 'transform', string[]>): string[] {
  const transforms = names.transform;
  const inputs =
    kind === 'sink'
      ? transforms.length > 0
        ? [transforms.at(-1)!]
        : names.source
      : transforms.length > 1
        ? [transforms.at(-2)!]
        : names.source;
  return inputs.length > 0 ? inputs : [PLACEHOLDER_INPUT];
}

/** Writes the config; Required markers become comments (YAML, TOML) or are left out (JSON). */
function serialize(config: Record<string, unknown>, format: ConfigFormat): string {
  const required: Required[] = [];
  const token = (n: number) => `SVC_REQUIRED_OPTION_${n}`;
  const marked = JSON.parse(
    JSON.stringify(config, (_key, value: unknown) => {
      if (!(value instanceof Required)) return value;
      required.push(value);
      return format === 'json' ? undefined : token(required.length - 1);
    }),
  ) as Record<string, unknown>;
  if (format === 'json') return `${JSON.stringify(marked, null, 2)}\n`;
  const text = format === 'yaml' ? toYaml(marked, { blockQuote: false }) : toToml(marked);
  const separator = format === 'yaml' ? ': ' : ' = ';
  return text.replace(
    new RegExp(`^(\\s*)(\\S.*?)${separator}"?SVC_REQUIRED_OPTION_(\\d+)"?$`, 'gm'),
    (_line, indent: string, key: string, n: string) =>
      `${indent}# ${key}${separator}<${required[Number(n)]!.expects}> (required)`,
  );
}
