// parse_cef(value, translate_custom_fields, strict): a Common Event Format message, ignoring anything before
// `CEF:`. The seven header fields take `\|` and `\\` escapes; the extension is `key=value` pairs separated by
// spaces, whose values take `\=`, `\\`, `\n` and `\r` escapes and lose surrounding quotes. A value ends where
// ` key=` starts; in strict mode a value may not hold an unescaped `=`.

import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { booleanArg, stringArg } from './support/args.js';

const HEADER_FIELDS = [
  'cefVersion',
  'deviceVendor',
  'deviceProduct',
  'deviceVersion',
  'deviceEventClassId',
  'name',
  'severity',
];

/** The extension keys that `<key>Label` can rename. */
const CUSTOM_FIELDS: ReadonlySet<string> = new Set([
  'c6a1',
  'c6a2',
  'c6a3',
  'c6a4',
  'cfp1',
  'cfp2',
  'cfp3',
  'cfp4',
  'cn1',
  'cn2',
  'cn3',
  'cs1',
  'cs2',
  'cs3',
  'cs4',
  'cs5',
  'cs6',
  'deviceCustomDate1',
  'deviceCustomDate2',
  'flexDate1',
  'flexNumber1',
  'flexNumber2',
  'flexString1',
  'flexString2',
]);

/** A header field: text up to an unescaped `|`. */
const HEADER_FIELD = /((?:[^|\\]|\\.)*)\|/sy;
const VALUE_ESCAPES: Readonly<Record<string, string>> = { '=': '=', '\\': '\\', n: '\n', r: '\r' };

const failure = () => new Error('Could not parse whole line successfully');

export const parse_cef: JsFunction = ([value, translateCustomFields, strictArg]) => {
  const text = stringArg(value!);
  const translate = booleanArg(translateCustomFields!, false);
  const strict = booleanArg(strictArg!, true);
  const start = text.indexOf('CEF:');
  if (start < 0) throw failure();
  const log: Record<string, RemapValue> = Object.create(null);
  HEADER_FIELD.lastIndex = start + 4;
  for (const name of HEADER_FIELDS) {
    const m = HEADER_FIELD.exec(text);
    if (!m) throw failure();
    log[name] = m[1]!.includes('\\') ? m[1]!.replace(/\\([|\\])/g, '$1') : m[1]!;
  }
  const extension = parseExtension(text.slice(HEADER_FIELD.lastIndex).replace(/^ +/, ''), strict);
  if (translate) Object.assign(log, translateFields(extension));
  else for (const [key, text] of extension) log[key] = text;
  return log;
};

function parseExtension(text: string, strict: boolean): Array<[string, string]> {
  const keys = keysOf(text);
  if (text.trim() !== '' && keys[0]?.index !== 0) throw failure();
  return keys.map((key, i) => {
    const next = keys[i + 1];
    let raw = next ? text.slice(key.valueStart, next.index - 1) : withoutTrailingSpaces(text.slice(key.valueStart));
    if (strict && hasUnescapedEquals(raw)) throw failure();
    if (raw.includes('\\')) raw = raw.replace(/\\([=\\nr])/g, (_, c: string) => VALUE_ESCAPES[c]!);
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) raw = raw.slice(1, -1);
    return [key.name, raw];
  });
}

/**
 * Where keys start, as `/(?:^|(?<= ))([\w.[\]-]+)=/g` finds them: at the start or after a space, key
 * characters, then `=`; the next search starts after that `=`. A scan, where the regex tried its lookbehind
 * at every position of the text (a third of the function's time on a typical line).
 */
function keysOf(text: string): Array<{ index: number; name: string; valueStart: number }> {
  const keys: Array<{ index: number; name: string; valueStart: number }> = [];
  for (let i = 0; i < text.length; i++) {
    if (i > 0 && text.charCodeAt(i - 1) !== SPACE) continue;
    let end = i;
    while (end < text.length && isKeyCharacter(text.charCodeAt(end))) end++;
    if (end === i || text.charCodeAt(end) !== EQUALS) continue;
    keys.push({ index: i, name: text.slice(i, end), valueStart: end + 1 });
    i = end;
  }
  return keys;
}

const SPACE = 0x20;
const EQUALS = 0x3d;

/** `[\w.[\]-]`: ASCII letters and digits, `_`, `.`, `[`, `]` and `-`. */
function isKeyCharacter(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x5b ||
    c === 0x5d ||
    c === 0x2d
  );
}

// Loops rather than `/ +$/` and `/(?:^|[^\\])(?:\\\\)*=/`, which a backtracker runs in quadratic time on a
// long run of spaces or backslashes.

function withoutTrailingSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === SPACE) end--;
  return text.slice(0, end);
}

/** Whether an `=` follows an even number of backslashes. */
function hasUnescapedEquals(text: string): boolean {
  let backslashes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === EQUALS && backslashes % 2 === 0) return true;
    backslashes = c === 0x5c ? backslashes + 1 : 0;
  }
  return false;
}

/** Custom fields take their label's text as name; the labels themselves go. */
function translateFields(pairs: Array<[string, string]>): Record<string, string> {
  const labels = new Map<string, string>();
  for (const [key, text] of pairs) {
    const field = key.endsWith('Label') ? key.slice(0, -'Label'.length) : undefined;
    if (field !== undefined && CUSTOM_FIELDS.has(field)) labels.set(field, text);
  }
  const out: Record<string, string> = Object.create(null);
  for (const [key, text] of pairs) {
    if (key.endsWith('Label') && labels.has(key.slice(0, -'Label'.length))) continue;
    out[labels.get(key) ?? key] = text;
  }
  return out;
}
