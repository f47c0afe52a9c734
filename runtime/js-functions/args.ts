// Run-time checks of argument kinds in JS functions, for calls whose argument kinds the compiler could
// not verify. The messages are VRL's: `expected string, got integer` (stdlib-as/functions/args.ts in AS).

import { lossyText } from '../text.js';
import { Regex, Timestamp, type RemapValue } from '../../abi/values.js';

export function kindName(value: RemapValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean': return 'boolean';
    case 'bigint': return 'integer';
    case 'number': return 'float';
    case 'string': return 'string';
  }
  if (value instanceof Uint8Array) return 'string';
  if (value instanceof Timestamp) return 'timestamp';
  if (value instanceof Regex) return 'regex';
  return Array.isArray(value) ? 'array' : 'object';
}

function mismatch(expected: string, value: RemapValue): Error {
  return new Error(`expected ${expected}, got ${kindName(value)}`);
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

export function regexArg(value: RemapValue): Regex {
  if (value instanceof Regex) return value;
  throw mismatch('regex', value);
}
