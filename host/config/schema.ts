// Validation of a loaded configuration: global options, secret backends, unit tests, and each component
// against the schema its type registers plus the options common to its kind. Every problem is reported,
// naming the file, the component and the option, with a suggestion for misspelled names.

import { z } from 'zod';
import { closestName, didYouMean } from './errors.js';
import {
  acknowledgementsSchema,
  graphSchema,
  healthcheckSchema,
  inputsSchema,
  proxySchema,
  sinkBufferSchema,
  type AcknowledgementsOptions,
  type BufferOptions,
  type HealthcheckOptions,
  type ProxyOptions,
} from './common.js';
import { globalSchema, secretBackendSchema, type GlobalOptions, type SecretBackendOptions } from './global.js';
import { describeType, type ComponentSection, type RawConfig } from './load.js';

export type ComponentKind = 'source' | 'transform' | 'sink' | 'enrichment_table';

type StrictObject = z.ZodObject<z.ZodRawShape, z.core.$strict>;

/** A component's own options: a strict object, or a union of strict objects told apart by one key (`mode`). */
export type OptionsSchema<T = unknown> = (StrictObject | z.ZodDiscriminatedUnion<StrictObject[]>) & z.ZodType<T>;

/** What a component type registers: its own options (without the common ones), and a line of description. */
export interface ComponentSchema<T = unknown> {
  kind: ComponentKind;
  type: string;
  options: OptionsSchema<T>;
  description: string;
  /** Common options the type validates itself, having fields of its own in them (splunk_hec_logs'
   * `acknowledgements`); its schema accepts what the common one does, and its options get them. */
  ownCommon?: readonly string[];
}

/** The object schemas of an options schema (one, or each member of the union). */
function objectsOf(schema: OptionsSchema): StrictObject[] {
  return schema instanceof z.ZodDiscriminatedUnion ? (schema.options as StrictObject[]) : [schema as StrictObject];
}

/** The options schema with more keys in every object. */
function extendOptions(schema: OptionsSchema, shape: z.ZodRawShape): z.ZodType {
  if (!(schema instanceof z.ZodDiscriminatedUnion)) return (schema as StrictObject).extend(shape);
  const [first, ...rest] = objectsOf(schema).map((object) => object.extend(shape));
  return z.discriminatedUnion(schema.def.discriminator, [first!, ...rest]);
}

/** The configuration section of each kind. */
export const KIND_SECTION: Record<ComponentKind, ComponentSection> = {
  source: 'sources',
  transform: 'transforms',
  sink: 'sinks',
  enrichment_table: 'enrichment_tables',
};

/** Options every component of a kind has besides `type` and its own (D.0, E.1, E.3, E.4). */
const COMMON_OPTIONS = {
  source: { graph: graphSchema.prefault({}), proxy: proxySchema.optional() },
  transform: { inputs: inputsSchema, graph: graphSchema.prefault({}) },
  sink: {
    inputs: inputsSchema,
    graph: graphSchema.prefault({}),
    buffer: sinkBufferSchema,
    healthcheck: healthcheckSchema.prefault({}),
    acknowledgements: acknowledgementsSchema.optional(),
    proxy: proxySchema.optional(),
  },
  enrichment_table: { graph: graphSchema.prefault({}) },
} satisfies Record<ComponentKind, z.ZodRawShape>;

/** The component types known to this build, by kind: their names, and the schemas of those registered (a
 * type only named is known, but a configuration using it cannot be validated). */
export class ComponentRegistry {
  private readonly schemas = new Map<ComponentKind, Map<string, ComponentSchema>>();
  private readonly names = new Map<ComponentKind, Set<string>>();

  /** Names types of a kind whose schemas may be registered later. */
  name(kind: ComponentKind, types: Iterable<string>): this {
    const names = this.names.get(kind) ?? new Set<string>();
    for (const type of types) names.add(type);
    this.names.set(kind, names);
    return this;
  }

  // biome-ignore lint/suspicious/noExplicitAny: a schema of any options type (variance)
  register(schema: ComponentSchema<any>): this {
    const byType = this.schemas.get(schema.kind) ?? new Map<string, ComponentSchema>();
    if (byType.has(schema.type)) throw new Error(`${schema.kind} type "${schema.type}" is registered twice`);
    const keys = objectsOf(schema.options).flatMap((object) => Object.keys(object.shape));
    const clash = keys.find(
      (key) => key === 'type' || (key in COMMON_OPTIONS[schema.kind] && !schema.ownCommon?.includes(key)),
    );
    if (clash) throw new Error(`${schema.kind} type "${schema.type}" declares the common option "${clash}"`);
    byType.set(schema.type, schema);
    this.schemas.set(schema.kind, byType);
    return this.name(schema.kind, [schema.type]);
  }

  /** The schema of a registered type; throws for a type only named. */
  get(kind: ComponentKind, type: string): ComponentSchema | undefined {
    const schema = this.schemas.get(kind)?.get(type);
    if (schema === undefined && this.names.get(kind)?.has(type))
      throw new Error(`${kind} type "${type}" has no schema registered`);
    return schema;
  }

  /** Known type names of a kind, sorted. */
  types(kind: ComponentKind): string[] {
    return [...(this.names.get(kind) ?? [])].sort();
  }
}

/** A validated component: its own options parsed with defaults, and the common options of its kind. */
export interface ComponentConfig<T = unknown> {
  id: string;
  kind: ComponentKind;
  type: string;
  /** The file that defined it. */
  file: string;
  options: T;
  /** Upstream ids as written (wildcards unresolved); empty for sources and enrichment tables. */
  inputs: string[];
  graph: { node_attributes: Record<string, string> };
  /** Sources and sinks; unset means the global proxy applies. */
  proxy?: ProxyOptions;
  /** Sinks only. */
  buffer?: BufferOptions;
  healthcheck?: HealthcheckOptions;
  /** Sinks only; unset (or `enabled` unset) means the global setting applies. */
  acknowledgements?: AcknowledgementsOptions;
}

const conditionSchema = z.union([z.string(), z.strictObject({ type: z.enum(['vrl', 'remap']), source: z.string() })]);

/** A unit test (upstream's format; the runner comes later). */
const testSchema = z.strictObject({
  name: z.string().min(1),
  inputs: z
    .array(
      z.strictObject({
        insert_at: z.string().min(1),
        type: z.enum(['raw', 'log', 'metric', 'vrl']).default('raw'),
        value: z.string().optional(),
        source: z.string().optional(),
        log_fields: z.record(z.string(), z.unknown()).optional(),
        metric: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .default([]),
  outputs: z
    .array(
      z.strictObject({
        extract_from: z.union([z.string(), z.array(z.string())]),
        conditions: z.array(conditionSchema).default([]),
      }),
    )
    .default([]),
  no_outputs_from: z.array(z.string()).default([]),
});
export type TestDefinition = z.output<typeof testSchema>;

/** A validated configuration. */
export interface Config {
  global: GlobalOptions;
  secret: Map<string, { file: string; options: SecretBackendOptions }>;
  sources: Map<string, ComponentConfig>;
  transforms: Map<string, ComponentConfig>;
  sinks: Map<string, ComponentConfig>;
  enrichment_tables: Map<string, ComponentConfig>;
  tests: Array<TestDefinition & { file: string }>;
  files: string[];
}

type Path = readonly PropertyKey[];

/** `buffer.max_events`, `inputs[0]`. */
function formatPath(path: Path): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`),
    '',
  );
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>(
    (v, key) => (typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    value,
  );
}

/** The keys an object schema accepts at `path` (through wrappers, arrays, records and unions). */
function keysAt(schema: z.core.$ZodType, path: Path): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
    case 'readonly':
    case 'catch':
      return keysAt(def.innerType as z.core.$ZodType, path);
    case 'pipe':
      return [...keysAt(def.in as z.core.$ZodType, path), ...keysAt(def.out as z.core.$ZodType, path)];
    case 'union':
      return (def.options as z.core.$ZodType[]).flatMap((option) => keysAt(option, path));
    case 'object': {
      const shape = def.shape as Record<string, z.core.$ZodType>;
      if (path.length === 0) return Object.keys(shape);
      const field = shape[String(path[0])];
      return field ? keysAt(field, path.slice(1)) : [];
    }
    case 'array':
      return path.length > 0 ? keysAt(def.element as z.core.$ZodType, path.slice(1)) : [];
    case 'record':
      return path.length > 0 ? keysAt(def.valueType as z.core.$ZodType, path.slice(1)) : [];
    default:
      return [];
  }
}

const TYPE_NAMES: Record<string, string> = { object: 'table', record: 'table', int: 'integer' };

/** One zod issue as user-facing messages (several for several unknown keys). */
function describeIssue(issue: z.core.$ZodIssue, schema: z.core.$ZodType, value: unknown): string[] {
  const path = issue.path;
  const option = formatPath(path);
  const got = valueAt(value, path);
  const shown = typeof got === 'string' ? `"${got}"` : describeType(got);
  const at = (message: string) => [option === '' ? message : `option "${option}": ${message}`];
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = keysAt(schema, path);
      return issue.keys.map((key) => {
        const guess = closestName(key, known);
        const suggestion = guess === undefined ? '' : `; did you mean "${formatPath([...path, guess])}"?`;
        return `unknown option "${formatPath([...path, key])}"${suggestion}`;
      });
    }
    case 'invalid_type':
      if (got === undefined) return [`missing required option "${option}"`];
      return at(`expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${shown}`);
    case 'invalid_value': {
      const allowed = issue.values.map((v) => JSON.stringify(v)).join(', ');
      const guess = typeof got === 'string' ? didYouMean(got, issue.values.map(String)) : '';
      return at(`expected one of ${allowed}, got ${shown}${guess}`);
    }
    case 'invalid_union': {
      if ('discriminator' in issue && issue.discriminator !== undefined) {
        if (got === undefined) return [`missing required option "${option}"`];
        const options = (issue as { options?: unknown[] }).options ?? [];
        const guess = typeof got === 'string' ? didYouMean(got, options.map(String)) : '';
        return at(`expected one of ${options.map((v) => JSON.stringify(v)).join(', ')}, got ${shown}${guess}`);
      }
      // Report the branch that got furthest: the one not rejecting the value's type outright.
      const branches = issue.errors.filter(
        (errors) => !errors.every((e) => e.code === 'invalid_type' && e.path.length === 0),
      );
      if (branches.length === 1) {
        return branches[0]!.flatMap((e) =>
          describeIssue({ ...e, path: [...path, ...e.path] } as z.core.$ZodIssue, schema, value),
        );
      }
      const expected = issue.errors.flatMap((errors) =>
        errors.flatMap((e) =>
          e.code === 'invalid_type' && e.path.length === 0 ? [TYPE_NAMES[e.expected] ?? e.expected] : [],
        ),
      );
      return at(`expected ${[...new Set(expected)].join(' or ') || 'another value'}, got ${shown}`);
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = small ? issue.minimum : issue.maximum;
      if (issue.origin === 'array' || issue.origin === 'set')
        return at(`expected ${small ? 'at least' : 'at most'} ${bound} item${bound === 1 ? '' : 's'}`);
      if (issue.origin === 'string')
        return at(
          small && bound === 1 ? 'must not be empty' : `expected ${small ? 'at least' : 'at most'} ${bound} characters`,
        );
      const relation = small ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      return at(`expected a number ${relation} ${bound}, got ${String(got)}`);
    }
    default:
      return at(issue.message);
  }
}

/** Parses `value` with `schema`; issues become messages prefixed with `prefix`. */
function check<S extends z.ZodType>(
  schema: S,
  value: unknown,
  prefix: (path: Path) => string,
  errors: string[],
): z.output<S> | undefined {
  // Without zod's compiled fast path: it compiles code (new Function) for each object schema on its first
  // parse, and a configuration parses once, against schemas extended for each component.
  const result = schema.safeParse(value, { jitless: true });
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    for (const message of describeIssue(issue, schema, value)) errors.push(`${prefix(issue.path)}${message}`);
  }
  return undefined;
}

/** The file that set the global option at `path` (or the closest enclosing one). */
function globalOrigin(raw: RawConfig, path: Path): string {
  for (let n = path.length; n > 0; n--) {
    const file = raw.globalOrigins.get(formatPath(path.slice(0, n)).replace(/\[\d+\]/g, ''));
    if (file) return file;
  }
  return raw.files.length === 1 ? raw.files[0]! : 'configuration';
}

/** Top-level names, for suggestions on a misspelled section or global option. */
const TOP_LEVEL = [
  ...Object.keys(globalSchema.in.shape),
  'sources',
  'transforms',
  'sinks',
  'enrichment_tables',
  'secret',
  'tests',
];

function validateComponent(
  kind: ComponentKind,
  id: string,
  file: string,
  table: Record<string, unknown>,
  registry: ComponentRegistry,
  errors: string[],
): ComponentConfig | undefined {
  const section = KIND_SECTION[kind];
  const where = `${file}: ${section}.${id}: `;
  const item = kind.replace('_', ' ');
  const type = table.type;
  if (type === undefined) {
    errors.push(`${where}missing required option "type"`);
    return undefined;
  }
  if (typeof type !== 'string') {
    errors.push(`${where}option "type": expected string, got ${describeType(type)}`);
    return undefined;
  }
  const schema = registry.get(kind, type);
  if (!schema) {
    errors.push(`${where}unknown ${item} type "${type}"${didYouMean(type, registry.types(kind))}`);
    return undefined;
  }
  const common = COMMON_OPTIONS[kind] as z.ZodRawShape;
  const own = new Set(schema.ownCommon);
  const added = Object.fromEntries(Object.entries(common).filter(([key]) => !own.has(key)));
  const full = extendOptions(schema.options, { type: z.literal(type), ...added });
  const parsed = check(full, table, () => where, errors) as Record<string, unknown> | undefined;
  if (!parsed) return undefined;
  const options = Object.fromEntries(
    Object.entries(parsed).filter(([key]) => key !== 'type' && (own.has(key) || !(key in common))),
  );
  return {
    id,
    kind,
    type,
    file,
    options,
    inputs: (parsed.inputs as string[] | undefined) ?? [],
    graph: (parsed.graph as ComponentConfig['graph']) ?? { node_attributes: {} },
    ...Object.fromEntries(
      ['proxy', 'buffer', 'healthcheck', 'acknowledgements']
        .filter((k) => parsed[k] !== undefined)
        .map((k) => [k, parsed[k]]),
    ),
  };
}

/** A secret backend's table validated (`secret.<id>`); undefined with the problems added to `errors`. */
export function validateSecretBackend(
  id: string,
  file: string,
  table: Record<string, unknown>,
  errors: string[],
): SecretBackendOptions | undefined {
  return check(secretBackendSchema, table, () => `${file}: secret.${id}: `, errors);
}

export interface ValidateOptions {
  /** --allow-empty-config: a config without sources or sinks is accepted. */
  allowEmpty?: boolean;
}

/**
 * Validates a loaded configuration against the global schema and the registered component types.
 * `config` is set only when `errors` is empty.
 */
export function validateConfig(
  raw: RawConfig,
  registry: ComponentRegistry,
  options: ValidateOptions = {},
): { config?: Config; errors: string[] } {
  const errors: string[] = [];
  const unknownTopLevel = Object.keys(raw.global).filter((key) => !(key in globalSchema.in.shape));
  for (const key of unknownTopLevel) {
    errors.push(`${globalOrigin(raw, [key])}: unknown option "${key}"${didYouMean(key, TOP_LEVEL)}`);
  }
  const knownGlobals = Object.fromEntries(Object.entries(raw.global).filter(([key]) => !unknownTopLevel.includes(key)));
  const global = check(globalSchema, knownGlobals, (path) => `${globalOrigin(raw, path)}: `, errors);

  const secret: Config['secret'] = new Map();
  for (const { id, file, table } of raw.sections.secret.values()) {
    const backend = validateSecretBackend(id, file, table, errors);
    if (backend) secret.set(id, { file, options: backend });
  }

  const components = {} as Record<ComponentKind, Map<string, ComponentConfig>>;
  const owners = new Map<string, string>();
  for (const [kind, section] of Object.entries(KIND_SECTION) as [ComponentKind, ComponentSection][]) {
    components[kind] = new Map();
    for (const { id, file, table } of raw.sections[section].values()) {
      const owner = owners.get(id);
      if (owner) errors.push(`component id "${id}" is used twice: ${owner} and ${section}.${id} in ${file}`);
      else owners.set(id, `${section}.${id} in ${file}`);
      const component = validateComponent(kind, id, file, table, registry, errors);
      if (component) components[kind].set(id, component);
    }
  }
  if (!options.allowEmpty) {
    if (raw.sections.sources.size === 0) errors.push('no sources defined in the configuration');
    if (raw.sections.sinks.size === 0) errors.push('no sinks defined in the configuration');
  }

  const tests: Config['tests'] = [];
  raw.tests.forEach(({ file, table }) => {
    const name = typeof table.name === 'string' ? `tests.${table.name}` : 'tests';
    const test = check(testSchema, table, () => `${file}: ${name}: `, errors);
    if (test) tests.push({ ...test, file });
  });

  if (errors.length > 0 || !global) return { errors };
  return {
    config: {
      global,
      secret,
      tests,
      files: raw.files,
      sources: components.source,
      transforms: components.transform,
      sinks: components.sink,
      enrichment_tables: components.enrichment_table,
    },
    errors,
  };
}
