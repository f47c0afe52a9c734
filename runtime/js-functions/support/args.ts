// Run-time checks of argument kinds in JS functions, for calls whose argument kinds the compiler could
// not verify. The messages are VRL's: `expected string, got integer` (stdlib-as/functions/args.ts in AS).

import { lossyText } from '../../text.js';
import { Regex, Timestamp, type RemapValue } from '../../../abi/values.js';
import { IntegralFloat } from '../../../abi/codec.js';

export function kindName(value: RemapValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'bigint':
      return 'integer';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
  }
  if (value instanceof Uint8Array) return 'string';
  if (value instanceof Timestamp) return 'timestamp';
  if (value instanceof Regex) return 'regex';
  return Array.isArray(value) ? 'array' : 'object';
}

/** A field as VRL's type display writes it: plain when it looks like an identifier, else quoted. */
function fieldName(key: string): string {
  return /^[0-9]*[a-zA-Z_@][0-9a-zA-Z_@]*$/.test(key) ? key : `"${key}"`;
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * A value's exact type as VRL prints it in errors (`Value::kind`): `integer`, `[integer, string]`,
 * `{ a: float, "b c": [null] }` with keys in byte order; empty collections are `array` and `object`.
 * The AS side writes the same (stdlib-as/ops.ts writeValueKind).
 */
export function valueKind(value: RemapValue): string {
  if (Array.isArray(value)) return value.length === 0 ? 'array' : `[${value.map(valueKind).join(', ')}]`;
  const name = kindName(value);
  if (name !== 'object') return name;
  const entries = Object.entries(value as Record<string, RemapValue>).sort(([a], [b]) => byteOrder(a, b));
  return entries.length === 0
    ? 'object'
    : `{ ${entries.map(([k, v]) => `${fieldName(k)}: ${valueKind(v)}`).join(', ')} }`;
}

function mismatch(expected: string, value: RemapValue): Error {
  return new Error(`expected ${expected}, got ${valueKind(value)}`);
}

/** A string argument's text, invalid UTF-8 replaced by U+FFFD (VRL's `try_bytes_utf8_lossy`). */
export function stringArg(value: RemapValue): string {
  if (typeof value === 'string' || value instanceof Uint8Array) return lossyText(value);
  throw mismatch('string', value);
}

/** An optional boolean argument (`null` when absent). */
export function booleanArg(value: RemapValue, absent: boolean): boolean {
  if (value === null) return absent;
  if (typeof value === 'boolean') return value;
  throw mismatch('boolean', value);
}

export function timestampArg(value: RemapValue): Timestamp {
  if (value instanceof Timestamp) return value;
  throw mismatch('timestamp', value);
}

/** An integer argument; `absent` stands for an optional one that is null. */
export function integerArg(value: RemapValue, absent?: bigint): bigint {
  if (value === null && absent !== undefined) return absent;
  if (typeof value === 'bigint') return value;
  throw mismatch('integer', value);
}

export function arrayArg(value: RemapValue): RemapValue[] {
  if (Array.isArray(value)) return value;
  throw mismatch('array', value);
}

/** A string argument's bytes, as they are (VRL's `try_bytes`). */
export function bytesArg(value: RemapValue): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return Buffer.from(value);
  throw mismatch('string', value);
}

/** A float result, which stays a float when integral (a plain JS number that is integral encodes as an integer). */
export function floatResult(x: number): RemapValue {
  return new IntegralFloat(x) as unknown as RemapValue;
}
