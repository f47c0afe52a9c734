// redact(value, filters, redactor = "full"): every match of the filters in a string, or in each string
// nested in an object or array, replaced by the redactor's text. Filters: regexes, the named filter
// `us_social_security_number`, or objects `{type: "pattern", patterns: [regex or literal string, …]}` /
// `{type: "us_social_security_number"}`. Redactors: `full` ("[REDACTED]"), `{type: "text", replacement}`,
// and `sha2` / `sha3` hashes of the match (`{type, variant, encoding: "base64" | "base16"}`).

import { createHash } from 'node:crypto';
import type { JsCallContext, JsFunction } from '../imports.js';
import { Regex, type RemapValue } from '../../abi/values.js';
import { RustRegex } from '../../abi/regex.js';
import { rustMatches } from '../../abi/rust-regex.js';
import { arrayArg, kindName, stringArg, valueKind } from './support/args.js';

type Replace = (match: string) => string;
type Filter = (text: string, replace: Replace) => string;

/** Area 001-899 except 666, group 01-99, serial 0001-9999. */
const US_SOCIAL_SECURITY_NUMBER = new RustRegex(
  '(?:00[1-9]|0[1-9][0-9]|[1-578][0-9]{2}|6[0-57-9][0-9]|66[0-57-9])-(?:0[1-9]|[1-9]0|[1-9][1-9])-(?:000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})',
);

const SHA2_VARIANTS: Record<string, string> = {
  'SHA-224': 'sha224',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
  'SHA-512/224': 'sha512-224',
  'SHA-512/256': 'sha512-256',
};
const SHA3_VARIANTS: Record<string, string> = {
  'SHA3-224': 'sha3-224',
  'SHA3-256': 'sha3-256',
  'SHA3-384': 'sha3-384',
  'SHA3-512': 'sha3-512',
};
const DEFAULT_VARIANT: Record<string, string> = { sha2: 'SHA-512/256', sha3: 'SHA3-512' };
const ENCODINGS: Record<string, 'base64' | 'hex'> = { base64: 'base64', base16: 'hex' };

/** `text` with each match of `re` (the regex crate's `replace_all`) replaced. */
function replaceAll(re: RustRegex, text: string, replace: Replace): string {
  let out = '';
  let rest = 0;
  for (const m of rustMatches(re, text)) {
    out += text.slice(rest, m.start) + replace(m.groups[0]!);
    rest = m.end;
  }
  return rest === 0 && out === '' ? text : out + text.slice(rest);
}

function regexFilter(re: RustRegex): Filter {
  return (text, replace) => replaceAll(re, text, replace);
}

function patternFilter(pattern: RemapValue, context: JsCallContext): Filter {
  if (pattern instanceof Regex) return regexFilter(context.regex(pattern.pattern));
  if (typeof pattern === 'string' || pattern instanceof Uint8Array) {
    const literal = stringArg(pattern);
    return (text, replace) => (literal === '' ? text : text.split(literal).join(replace(literal)));
  }
  throw new Error(`expected string or regex, got ${valueKind(pattern)}`);
}

function namedFilter(name: string): Filter {
  if (name === 'us_social_security_number') return regexFilter(US_SOCIAL_SECURITY_NUMBER);
  throw new Error(`unknown filter name: ${name}`);
}

function filterOf(filter: RemapValue, context: JsCallContext): Filter[] {
  if (filter instanceof Regex) return [regexFilter(context.regex(filter.pattern))];
  if (typeof filter === 'string' || filter instanceof Uint8Array) return [namedFilter(stringArg(filter))];
  if (kindName(filter) !== 'object') throw new Error(`expected string, regex or object, got ${valueKind(filter)}`);
  const options = filter as { [key: string]: RemapValue };
  const type = field(options, 'type', 'filter');
  if (type !== 'pattern') return [namedFilter(type)];
  const patterns = options.patterns;
  if (patterns === undefined) throw new Error('pattern filter must have patterns');
  return arrayArg(patterns).map((p) => patternFilter(p, context));
}

/** A string field of an options object. */
function field(object: { [key: string]: RemapValue }, name: string, what: string): string {
  const value = object[name];
  if (value === undefined) throw new Error(`${what} must have a ${name}`);
  return stringArg(value);
}

function hashRedactor(kind: string, variant: string, encoding: string): Replace {
  const algorithm = (kind === 'sha2' ? SHA2_VARIANTS : SHA3_VARIANTS)[variant];
  if (algorithm === undefined) throw new Error(`invalid ${kind} variant: ${variant}`);
  const encode = ENCODINGS[encoding];
  if (encode === undefined) throw new Error(`invalid encoding: ${encoding}`);
  return (match) => createHash(algorithm).update(match).digest(encode);
}

function redactorOf(redactor: RemapValue): Replace {
  if (redactor === null) return () => '[REDACTED]';
  if (typeof redactor === 'string' || redactor instanceof Uint8Array) {
    const type = stringArg(redactor);
    if (type === 'full') return () => '[REDACTED]';
    if (type in DEFAULT_VARIANT) return hashRedactor(type, DEFAULT_VARIANT[type]!, 'base64');
    throw new Error(`unknown redactor: ${type}`);
  }
  if (kindName(redactor) !== 'object') {
    throw new Error(`expected string or object, got ${valueKind(redactor)}`);
  }
  const options = redactor as { [key: string]: RemapValue };
  const type = field(options, 'type', 'redactor');
  if (type === 'full') return () => '[REDACTED]';
  if (type === 'text') {
    const replacement = field(options, 'replacement', 'text redactor');
    return () => replacement;
  }
  if (type in DEFAULT_VARIANT) {
    const variant = options.variant === undefined ? DEFAULT_VARIANT[type]! : stringArg(options.variant);
    const encoding = options.encoding === undefined ? 'base64' : stringArg(options.encoding);
    return hashRedactor(type, variant, encoding);
  }
  throw new Error(`unknown redactor: ${type}`);
}

function redactValue(value: RemapValue, filters: Filter[], replace: Replace): RemapValue {
  if (typeof value === 'string' || value instanceof Uint8Array) {
    return filters.reduce((text, filter) => filter(text, replace), stringArg(value));
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, filters, replace));
  if (kindName(value) === 'object') {
    const out: { [key: string]: RemapValue } = Object.create(null);
    for (const [key, item] of Object.entries(value as object)) out[key] = redactValue(item, filters, replace);
    return out;
  }
  return value;
}

export const redact: JsFunction = ([value, filters, redactor], context) => {
  const kind = kindName(value!);
  if (kind !== 'string' && kind !== 'object' && kind !== 'array') {
    throw new Error(`expected string, object or array, got ${kind}`);
  }
  const compiled = arrayArg(filters!).flatMap((f) => filterOf(f, context));
  return redactValue(value!, compiled, redactorOf(redactor!));
};
