// Reads configuration files (--config, --config-dir, --config-json/-toml/-yaml), interpolates the
// environment, parses each file by its format and merges them into one raw configuration, as Vector does.
// Every piece remembers the file it came from; all problems are collected into one ConfigError.

import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, isAbsolute, join } from 'node:path';
import { ConfigError } from './errors.js';
import { globberFor } from './glob-paths.js';
import {
  findSecretReferences,
  interpolateEnv,
  interpolationEnv,
  substituteSecrets,
  type SecretReference,
} from './interpolate.js';

export type ConfigFormat = 'yaml' | 'toml' | 'json';

/** A file to read; `format` is set when forced (--config-json/-toml/-yaml), else it comes from the extension. */
interface ConfigFileRef {
  path: string;
  format?: ConfigFormat;
}

/** Where the configuration comes from: files or globs, and --config-dir directories. */
export interface ConfigLocations {
  files: ConfigFileRef[];
  dirs: string[];
}

/** Sections holding tables of id → component (or backend) table. */
const COMPONENT_SECTIONS = ['sources', 'transforms', 'sinks', 'enrichment_tables', 'secret'] as const;
export type ComponentSection = (typeof COMPONENT_SECTIONS)[number];

/** A section's item, in the singular, for messages. */
const SECTION_ITEM: Record<ComponentSection, string> = {
  sources: 'source',
  transforms: 'transform',
  sinks: 'sink',
  enrichment_tables: 'enrichment table',
  secret: 'secret backend',
};

/** One component's (or secret backend's) table as written, and where. */
interface RawComponent {
  id: string;
  file: string;
  table: Record<string, unknown>;
}

/** One unit test definition as written, and where. */
interface RawTest {
  file: string;
  table: Record<string, unknown>;
}

/** All files merged, not yet validated. */
export interface RawConfig {
  /** Top-level options outside the component sections and `tests`, merged across files. */
  global: Record<string, unknown>;
  /** The file that set each global option, keyed by dotted path of the value that was set. */
  globalOrigins: Map<string, string>;
  sections: Record<ComponentSection, Map<string, RawComponent>>;
  tests: RawTest[];
  /** Every file read, in order (what a watcher watches). */
  files: string[];
  /** `SECRET[...]` references found (after environment interpolation, as Vector scans them) */
  secrets: SecretReference[];
}

export interface LoadOptions {
  /** Environment for interpolation; `process.env` by default. */
  env?: NodeJS.ProcessEnv;
  /** False with --disable-env-var-interpolation. */
  interpolate?: boolean;
  /** The resolved secrets (`backend.key` → value) that replace the `SECRET[...]` references, after the
   * environment (`secrets.ts` resolves them); without them the references stay as written. */
  secrets?: ReadonlyMap<string, string>;
}

/** Only these files are read from config directories. */
const FORMAT_BY_EXTENSION: Record<string, ConfigFormat> = {
  '.toml': 'toml',
  '.json': 'json',
  '.yaml': 'yaml',
  '.yml': 'yaml',
};

/** Subdirectories of a config dir holding one component per file, the file stem being the id. */
const DIRECTORY_SECTIONS: Record<string, ComponentSection | 'tests'> = {
  sources: 'sources',
  transforms: 'transforms',
  sinks: 'sinks',
  enrichment_tables: 'enrichment_tables',
  tests: 'tests',
};

/** The format of a path given to --config: from its extension, falling back to YAML. */
export function formatOfPath(path: string): ConfigFormat {
  return FORMAT_BY_EXTENSION[extname(path).toLowerCase()] ?? 'yaml';
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** "array", "string", ... for messages. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'datetime';
  return typeof value === 'object' ? 'table' : typeof value;
}

/** 1-based line and column of a character offset. */
function positionAt(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - before.lastIndexOf('\n')}`;
}

/** Whether JSON.parse of `text` fails before reaching its end, not just because the text ends early. */
function jsonFailsBeforeEnd(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch (e) {
    const message = (e as Error).message;
    const stated = /at position (\d+)/.exec(message);
    return stated ? Number(stated[1]) < text.length : !message.startsWith('Unexpected end of JSON input');
  }
}

/**
 * The offset of a JSON syntax error. V8 states it in most messages but not for an unexpected token: then
 * it is found as the end of the shortest prefix that fails before its end (a shorter one parses or ends early).
 */
function jsonErrorOffset(text: string, message: string): number {
  const stated = /at position (\d+)/.exec(message);
  if (stated) return Number(stated[1]);
  if (message.startsWith('Unexpected end of JSON input')) return text.length;
  let fine = 0;
  let failing = text.length;
  while (failing - fine > 1) {
    const middle = (fine + failing) >> 1;
    if (jsonFailsBeforeEnd(text.slice(0, middle))) failing = middle;
    else fine = middle;
  }
  return failing - 1;
}

/** smol-toml builds tables without a prototype: copy them into plain objects like the other parsers'. */
function plainTables(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainTables);
  if (!isTable(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainTables(v)]));
}

/** Parses a file's text by format; errors carry `file:line:column`. An empty document is an empty table. */
async function parseText(
  text: string,
  format: ConfigFormat,
  file: string,
): Promise<{ value?: unknown; errors: string[] }> {
  switch (format) {
    case 'yaml': {
      // Loaded for YAML files only (like TOML's parser): a JSON configuration starts ~20 ms sooner. The
      // package is CommonJS: its functions are on the module object, bundled or not.
      const { parseDocument } = ((await import('yaml')) as unknown as { default: typeof import('yaml') }).default;
      const document = parseDocument(text);
      if (document.errors.length > 0) {
        return {
          errors: document.errors.map((e) => {
            const where = e.linePos ? `:${e.linePos[0].line}:${e.linePos[0].col}` : '';
            return `${file}${where}: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`;
          }),
        };
      }
      return { value: document.toJS() ?? {}, errors: [] };
    }
    case 'toml': {
      const { parse: parseToml, TomlError } = await import('smol-toml');
      try {
        return { value: plainTables(parseToml(text)), errors: [] };
      } catch (e) {
        if (!(e instanceof TomlError)) throw e;
        return { errors: [`${file}:${e.line}:${e.column}: ${e.message.split('\n')[0]}`] };
      }
    }
    case 'json':
      try {
        return { value: JSON.parse(text), errors: [] };
      } catch (e) {
        const message = (e as Error).message;
        const where = positionAt(text, jsonErrorOffset(text, message));
        // V8 quotes the text around an unexpected token; the position says where it is.
        return {
          errors: [
            `${file}:${where}: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/, (\.\.\.)?".*" is not valid JSON$/s, '')}`,
          ],
        };
      }
  }
}

/** Deep equality of parsed config values (plain data only). */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Accumulates files into a RawConfig, collecting errors. */
class ConfigBuilder {
  readonly config: RawConfig = {
    global: {},
    globalOrigins: new Map(),
    sections: Object.fromEntries(COMPONENT_SECTIONS.map((s) => [s, new Map()])) as RawConfig['sections'],
    tests: [],
    files: [],
    secrets: [],
  };
  readonly errors: string[] = [];

  constructor(
    private readonly env: Record<string, string | undefined> | undefined,
    private readonly secrets: ReadonlyMap<string, string> | undefined,
  ) {}

  /** Reads, interpolates and parses one file; undefined when it failed (errors recorded). */
  async read(file: string, format: ConfigFormat): Promise<Record<string, unknown> | undefined> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      this.errors.push(`${file}: could not read the file: ${(e as Error).message}`);
      return undefined;
    }
    this.config.files.push(file);
    if (this.env) {
      const interpolated = interpolateEnv(text, this.env, file);
      this.errors.push(...interpolated.errors);
      if (interpolated.errors.length > 0) return undefined;
      text = interpolated.text;
    }
    this.config.secrets.push(...findSecretReferences(text, file));
    if (this.secrets) {
      const substituted = substituteSecrets(text, this.secrets, file);
      this.errors.push(...substituted.errors);
      if (substituted.errors.length > 0) return undefined;
      text = substituted.text;
    }
    const parsed = await parseText(text, format, file);
    this.errors.push(...parsed.errors);
    if (parsed.errors.length > 0) return undefined;
    if (!isTable(parsed.value)) {
      this.errors.push(`${file}: expected a table of options at the top level, got ${describeType(parsed.value)}`);
      return undefined;
    }
    return parsed.value;
  }

  /** Merges a whole configuration file (a --config file or a config dir's root file). */
  addRoot(table: Record<string, unknown>, file: string): void {
    for (const [key, value] of Object.entries(table)) {
      if ((COMPONENT_SECTIONS as readonly string[]).includes(key)) {
        const section = key as ComponentSection;
        if (!isTable(value)) {
          this.errors.push(
            `${file}: "${key}" must be a table of ${SECTION_ITEM[section]} ids, got ${describeType(value)}`,
          );
          continue;
        }
        for (const [id, component] of Object.entries(value)) this.addComponent(section, id, component, file);
      } else if (key === 'tests') {
        if (!Array.isArray(value)) {
          this.errors.push(`${file}: "tests" must be an array of tests, got ${describeType(value)}`);
          continue;
        }
        value.forEach((test, index) => this.addTest(test, file, `tests[${index}]`));
      } else {
        this.mergeGlobal(this.config.global, key, value, key, file);
      }
    }
  }

  addComponent(section: ComponentSection, id: string, table: unknown, file: string): void {
    const item = SECTION_ITEM[section];
    if (!isTable(table)) {
      this.errors.push(`${file}: ${section}.${id}: a ${item} must be a table of options, got ${describeType(table)}`);
      return;
    }
    const existing = this.config.sections[section].get(id);
    if (existing) {
      this.errors.push(`duplicate ${item} id "${id}": defined in ${existing.file} and in ${file}`);
      return;
    }
    this.config.sections[section].set(id, { id, file, table });
  }

  addTest(test: unknown, file: string, where: string): void {
    if (!isTable(test)) {
      this.errors.push(`${file}: ${where}: a test must be a table, got ${describeType(test)}`);
      return;
    }
    this.config.tests.push({ file, table: test });
  }

  /**
   * Sets a global option; tables merge key by key, and a value already set to something else by another
   * file is a conflict, as Vector reports it.
   */
  private mergeGlobal(target: Record<string, unknown>, key: string, value: unknown, path: string, file: string): void {
    const current = target[key];
    if (isTable(current) && isTable(value)) {
      for (const [k, v] of Object.entries(value)) this.mergeGlobal(current, k, v, `${path}.${k}`, file);
      return;
    }
    if (current === undefined) {
      target[key] = isTable(value) ? { ...value } : value;
      this.recordOrigins(value, path, file);
      return;
    }
    if (sameValue(current, value)) return;
    const firstFile =
      this.config.globalOrigins.get(path) ??
      [...this.config.globalOrigins].find(([p]) => p.startsWith(`${path}.`))?.[1];
    this.errors.push(
      `conflicting values for global option "${path}": ${JSON.stringify(current)} in ${firstFile}, ` +
        `${JSON.stringify(value)} in ${file}`,
    );
  }

  private recordOrigins(value: unknown, path: string, file: string): void {
    this.config.globalOrigins.set(path, file);
    if (isTable(value)) for (const [k, v] of Object.entries(value)) this.recordOrigins(v, `${path}.${k}`, file);
  }
}

/** Files matched by a --config entry: a glob must match something; a plain path is taken as is. */
async function expandPath(ref: ConfigFileRef, errors: string[]): Promise<ConfigFileRef[]> {
  const globber = await globberFor([ref.path]);
  if (!globber?.isDynamicPattern(ref.path)) return [ref];
  const matches = (await globber.glob(ref.path, { absolute: isAbsolute(ref.path), onlyFiles: true })).sort();
  if (matches.length === 0) errors.push(`config file not found in path: ${ref.path}`);
  return matches.map((path) => ({ path, ...(ref.format ? { format: ref.format } : {}) }));
}

/** Entries of a directory sorted by name, or undefined with an error recorded. */
async function listDirectory(dir: string, errors: string[]) {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch (e) {
    errors.push(`${dir}: could not read the config directory: ${(e as Error).message}`);
    return undefined;
  }
}

/** The config file's stem and format, or undefined for files a config dir ignores. */
function configFile(name: string): { stem: string; format: ConfigFormat } | undefined {
  const extension = extname(name);
  const format = FORMAT_BY_EXTENSION[extension];
  return format && !name.startsWith('.') ? { stem: basename(name, extension), format } : undefined;
}

/**
 * A component subdirectory: each file is one component whose id is the file stem. Under `transforms/`, a
 * subdirectory `x/` holds parts of component `x`: each of its files is the option named by its stem.
 */
async function loadComponentDirectory(
  builder: ConfigBuilder,
  dir: string,
  section: ComponentSection | 'tests',
): Promise<void> {
  const entries = await listDirectory(dir, builder.errors);
  if (!entries) return;
  const parts = new Map<string, Record<string, unknown>>();
  const partFiles = new Map<string, string>();
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (section !== 'transforms' || entry.name.startsWith('.')) continue;
      const table: Record<string, unknown> = {};
      for (const part of (await listDirectory(path, builder.errors)) ?? []) {
        const file = part.isFile() ? configFile(part.name) : undefined;
        if (!file) continue;
        const value = await builder.read(join(path, part.name), file.format);
        if (value !== undefined) table[file.stem] = value;
      }
      parts.set(entry.name, table);
      partFiles.set(entry.name, path);
      continue;
    }
    const file = entry.isFile() ? configFile(entry.name) : undefined;
    if (!file) continue;
    const table = await builder.read(path, file.format);
    if (table === undefined) continue;
    if (section === 'tests') builder.addTest({ name: file.stem, ...table }, path, file.stem);
    else builder.addComponent(section, file.stem, table, path);
  }
  for (const [id, table] of parts) {
    const component = builder.config.sections.transforms.get(id);
    if (!component) {
      builder.addComponent('transforms', id, table, partFiles.get(id)!);
      continue;
    }
    for (const [key, value] of Object.entries(table)) {
      if (key in component.table)
        builder.errors.push(
          `${partFiles.get(id)}: transforms.${id}: option "${key}" is set both in ${component.file} and in the directory`,
        );
      else component.table[key] = value;
    }
  }
}

/** A --config-dir: root files merge as whole configurations, component subdirectories hold one per file. */
async function loadDirectory(builder: ConfigBuilder, dir: string): Promise<void> {
  const entries = await listDirectory(dir, builder.errors);
  if (!entries) return;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const section = DIRECTORY_SECTIONS[entry.name];
      if (section) await loadComponentDirectory(builder, path, section);
      continue;
    }
    const file = entry.isFile() ? configFile(entry.name) : undefined;
    const table = file && (await builder.read(path, file.format));
    if (table) builder.addRoot(table, path);
  }
}

/**
 * Loads and merges every configuration file. Throws a ConfigError listing every problem: unreadable or
 * unparsable files, interpolation errors, globs matching nothing, duplicate ids, conflicting globals, and
 * with `secrets`, a reference none of them resolves.
 */
export async function loadConfig(locations: ConfigLocations, options: LoadOptions = {}): Promise<RawConfig> {
  const env = options.interpolate === false ? undefined : interpolationEnv(options.env ?? process.env);
  const builder = new ConfigBuilder(env, options.secrets);
  for (const ref of locations.files) {
    for (const file of await expandPath(ref, builder.errors)) {
      const table = await builder.read(file.path, file.format ?? formatOfPath(file.path));
      if (table) builder.addRoot(table, file.path);
    }
  }
  for (const dir of locations.dirs) await loadDirectory(builder, dir);
  if (builder.errors.length > 0) throw new ConfigError(builder.errors);
  return builder.config;
}
