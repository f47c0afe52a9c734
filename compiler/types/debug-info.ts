// VRL's `Kind::debug_info`: a type as a value, what `type_def` returns. Each kind present is a key set to
// true; arrays and objects map their known entries (by index or field) to their own type, plus `unknown`
// for the type of any other entry.

import type { Constant } from './constant.js';
import { K, type Collection, type Kind } from './kind.js';

const SCALAR_NAMES: ReadonlyArray<[number, string]> = [
  [K.Bytes, 'bytes'],
  [K.Integer, 'integer'],
  [K.Float, 'float'],
  [K.Boolean, 'boolean'],
  [K.Timestamp, 'timestamp'],
  [K.Regex, 'regex'],
  [K.Null, 'null'],
  [K.Undefined, 'undefined'],
];

export function kindDebugInfo(kind: Kind, depth = 0): Constant {
  const fields = new Map<string, Constant>();
  for (const [bit, name] of SCALAR_NAMES) if (kind.bits & bit) fields.set(name, { kind: 'boolean', value: true });
  // Collections of `any` refer to themselves: below a few levels only the kinds are shown.
  if (kind.bits & K.Array && kind.array) fields.set('array', collectionDebugInfo(kind.array, depth));
  if (kind.bits & K.Object && kind.object) fields.set('object', collectionDebugInfo(kind.object, depth));
  return { kind: 'object', fields };
}

function collectionDebugInfo<Key>(collection: Collection<Key>, depth: number): Constant {
  const fields = new Map<string, Constant>();
  if (depth > 8) return { kind: 'object', fields };
  for (const [key, kind] of collection.known) fields.set(String(key), kindDebugInfo(kind, depth + 1));
  if (collection.unknown && collection.unknown.bits !== 0)
    fields.set('unknown', kindDebugInfo(collection.unknown, depth + 1));
  return { kind: 'object', fields };
}
