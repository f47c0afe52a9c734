// VRL's `Display` of values on the JS side: the same text as the stdlib's writeDisplay
// (stdlib-as/codec/display.ts), e.g. `{ "a": [1, 2.0, "x\"y"], "t": t'2020-10-10T16:00:00Z' }`.

import { Regex, Timestamp, type RemapValue } from '../abi/values.js';

const lossyUtf8 = new TextDecoder('utf-8');
const utf8 = new TextEncoder();

export function display(value: RemapValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'number':
      return displayFloat(value);
    case 'string':
      return `"${escapeText(value)}"`;
  }
  if (value instanceof Uint8Array) return `"${escapeText(lossyUtf8.decode(value))}"`;
  if (value instanceof Timestamp) return `t'${value.toString()}'`;
  if (value instanceof Regex) return `r'${value.pattern}'`;
  if (Array.isArray(value)) return `[${value.map(display).join(', ')}]`;
  const keys = Object.keys(value).sort(compareUtf8);
  if (keys.length === 0) return '{}';
  // VRL quotes keys without escaping them.
  return `{ ${keys.map((key) => `"${key}": ${display(value[key]!)}`).join(', ')} }`;
}

/** Shortest round-trip digits, never an exponent, always a fractional part; infinities as `inf`. */
export function displayFloat(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? 'inf' : '-inf';
  if (Object.is(x, -0)) return '-0.0';
  const text = String(x);
  const exponential = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponential) return text.includes('.') ? text : `${text}.0`;
  const [, sign, first, rest = '', exponent] = exponential;
  const digits = first! + rest;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** VRL escapes only backslashes, double quotes and newlines. */
function escapeText(text: string): string {
  return text.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** VRL orders object keys by their UTF-8 bytes. */
function compareUtf8(a: string, b: string): number {
  return Buffer.compare(utf8.encode(a), utf8.encode(b));
}
