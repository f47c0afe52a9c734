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
/** Where a key starts: the extension's start or a space, then the key and `=`. */
const KEY = /(?:^|(?<= ))([\w.[\]-]+)=/g;
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
    log[name] = m[1]!.replace(/\\([|\\])/g, '$1');
  }
  const extension = parseExtension(text.slice(HEADER_FIELD.lastIndex).replace(/^ +/, ''), strict);
  Object.assign(log, translate ? translateFields(extension) : Object.fromEntries(extension));
  return log;
};

function parseExtension(text: string, strict: boolean): Array<[string, string]> {
  const keys = [...text.matchAll(KEY)];
  if (text.trim() !== '' && keys[0]?.index !== 0) throw failure();
  return keys.map((m, i) => {
    const valueStart = m.index! + m[0].length;
    const next = keys[i + 1];
    let raw = next ? text.slice(valueStart, next.index! - 1) : withoutTrailingSpaces(text.slice(valueStart));
    if (strict && hasUnescapedEquals(raw)) throw failure();
    raw = raw.replace(/\\([=\\nr])/g, (_, c: string) => VALUE_ESCAPES[c]!);
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) raw = raw.slice(1, -1);
    return [m[1]!, raw];
  });
}

// Loops rather than `/ +$/` and `/(?:^|[^\\])(?:\\\\)*=/`, which a backtracker runs in quadratic time on a
// long run of spaces or backslashes.

function withoutTrailingSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === ' ') end--;
  return text.slice(0, end);
}

/** Whether an `=` follows an even number of backslashes. */
function hasUnescapedEquals(text: string): boolean {
  let backslashes = 0;
  for (const c of text) {
    if (c === '=' && backslashes % 2 === 0) return true;
    backslashes = c === '\\' ? backslashes + 1 : 0;
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
