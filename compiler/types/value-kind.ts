// The kind of a known value: what the checker knows of values that exist before the program runs (the
// REPL's event and the variables left by earlier lines).

import { Regex, Timestamp, type RemapValue } from '../../abi/values.js';
import { BOOLEAN, BYTES, FLOAT, INTEGER, NULL, REGEX, TIMESTAMP, exactArray, exactObject, type Kind } from './kind.js';

/** The exact kind of `value`. */
export function kindOfValue(value: RemapValue): Kind {
  if (value === null) return NULL;
  if (typeof value === 'boolean') return BOOLEAN;
  if (typeof value === 'bigint') return INTEGER;
  if (typeof value === 'number') return FLOAT;
  if (typeof value === 'string' || value instanceof Uint8Array) return BYTES;
  if (value instanceof Timestamp) return TIMESTAMP;
  if (value instanceof Regex) return REGEX;
  if (Array.isArray(value)) return exactArray(value.map(kindOfValue));
  return exactObject(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, kindOfValue(v)])));
}
