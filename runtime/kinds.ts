// VRL's kind names of remap values on the JS side, and the argument checks host functions make with them
// (`expected string, got integer`).

import { lossyText } from './text.js';
import { Regex, Timestamp, type RemapValue } from './values.js';

export function kindOf(value: RemapValue): string {
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

/** A string argument as text (lossy UTF-8). */
export function expectText(value: RemapValue): string {
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) throw new Error(`expected string, got ${kindOf(value)}`);
  return lossyText(value);
}

export function expectTimestamp(value: RemapValue): Timestamp {
  if (!(value instanceof Timestamp)) throw new Error(`expected timestamp, got ${kindOf(value)}`);
  return value;
}
