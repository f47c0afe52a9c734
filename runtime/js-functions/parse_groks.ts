// parse_groks(value, patterns, aliases, alias_sources): the first of several Datadog-style grok patterns that
// matches the whole value. Aliases come from the argument and from JSON files (read once per path); dotted
// field names nest; filters and typed matchers convert captures.

import { readFileSync } from 'node:fs';
import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { stringArg } from './support/args.js';
import { compileGrok, GrokCompileError, type GrokField } from './support/grok.js';
import { floatValue } from './support/float.js';

const aliasFiles = new Map<string, Record<string, string>>();

export const parse_groks: JsFunction = ([value, patterns, aliasArg, aliasSources]) => {
  const text = stringArg(value!);
  const aliases: Record<string, string> = Object.create(null);
  for (const path of list(aliasSources, 'alias_sources')) Object.assign(aliases, aliasFile(stringArg(path)));
  for (const [name, alias] of Object.entries(object(aliasArg))) aliases[name] = stringArg(alias);
  // Without aliases (the usual call) the compiled patterns are found without writing out an alias set.
  const options = { aliases: Object.keys(aliases).length > 0 ? aliases : undefined, datadog: true };
  for (const pattern of list(patterns, 'patterns')) {
    let grok;
    try {
      grok = compileGrok(stringArg(pattern), options);
    } catch (error) {
      if (error instanceof GrokCompileError) throw new Error(`unable to parse grok: ${error.message}`);
      throw error;
    }
    const groups = grok.match(text);
    if (groups) return fieldsOf(grok.fields, groups);
  }
  throw new Error('unable to parse grok: value does not match any rule');
};

function list(value: RemapValue | undefined, name: string): RemapValue[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${name} must be an array`);
  return value;
}

function object(value: RemapValue | undefined): Record<string, RemapValue> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) {
    throw new Error('aliases must be an object');
  }
  return value as Record<string, RemapValue>;
}

function aliasFile(path: string): Record<string, string> {
  let aliases = aliasFiles.get(path);
  if (!aliases) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(`unable to read alias source ${path}: ${(error as Error).message}`);
    }
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      Array.isArray(parsed) ||
      !Object.values(parsed).every((alias) => typeof alias === 'string')
    ) {
      throw new Error(`unable to read alias source ${path}: expected an object of strings`);
    }
    aliases = parsed as Record<string, string>;
    aliasFiles.set(path, aliases);
  }
  return aliases;
}

function fieldsOf(fields: readonly GrokField[], groups: Record<string, string | undefined>): RemapValue {
  const result: Record<string, RemapValue> = Object.create(null);
  for (const field of fields) {
    const text = groups[field.group];
    if (text === undefined) continue;
    const converted = convert(text, field);
    if (converted === undefined) continue;
    if (field.name === '') {
      if (converted && typeof converted === 'object' && !Array.isArray(converted)) Object.assign(result, converted);
      continue;
    }
    const path = field.name.split('.');
    let target = result;
    for (const segment of path.slice(0, -1)) {
      const next = target[segment];
      target = (
        next && typeof next === 'object' && !Array.isArray(next) && !(next instanceof Uint8Array)
          ? next
          : (target[segment] = Object.create(null))
      ) as Record<string, RemapValue>;
    }
    const last = path[path.length - 1]!;
    if (!(last in target)) target[last] = converted;
  }
  return result;
}

/** A capture through its filter; `undefined` leaves the field out (a failed conversion, `nullIf`). */
function convert(text: string, field: GrokField): RemapValue | undefined {
  switch (field.filter) {
    case undefined:
      return field.date ? field.date.parse(text) : text;
    case 'integer': {
      const n = Number(text.trim());
      return Number.isFinite(n) && Number.isInteger(n) ? BigInt(n) : undefined;
    }
    case 'number': {
      const n = Number(text.trim());
      return text.trim() !== '' && Number.isFinite(n) ? floatValue(n) : undefined;
    }
    case 'boolean':
      return /^true$/i.test(text) ? true : /^false$/i.test(text) ? false : undefined;
    case 'lowercase':
      return text.toLowerCase();
    case 'uppercase':
      return text.toUpperCase();
    case 'nullIf':
      return text === field.argument ? undefined : text;
    case 'json':
      try {
        return JSON.parse(text) as RemapValue;
      } catch {
        return undefined;
      }
    default:
      throw new Error(`unable to parse grok: unknown filter "${field.filter}"`);
  }
}
