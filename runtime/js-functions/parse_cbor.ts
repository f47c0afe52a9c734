
import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { valueKind } from './args.js';
import { decode } from 'cborg';

/**
 * `parse_cbor(value)`: one CBOR item (cborg) as remap values: whole numbers as integers (cborg does not
 * tell a float `1.0` from the integer `1`), byte strings as strings, maps as objects with text keys,
 * undefined as null.
 */
export const parse_cbor: JsFunction = ([value]) => {
  if (!(typeof value === 'string' || value instanceof Uint8Array)) throw new Error(`expected string, got ${valueKind(value!)}`);
  const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
  let item: unknown;
  try {
    item = decode(bytes, { useMaps: true, allowUndefined: true, allowIndefinite: true });
  } catch (e) {
    throw new Error(`unable to parse cbor: ${(e as Error).message}`);
  }
  return toRemap(item);
};

function toRemap(v: unknown): RemapValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'number': return Number.isInteger(v) && Number.isSafeInteger(v) ? BigInt(v) : Number.isNaN(v) ? 0 : v;
    case 'bigint': return BigInt.asIntN(64, v);
    case 'boolean':
    case 'string': return v;
  }
  if (v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return v.map(toRemap);
  if (v instanceof Date) return toRemap(v.getTime() / 1000);
  const object: Record<string, RemapValue> = Object.create(null);
  const entries = v instanceof Map ? [...v.entries()] : Object.entries(v as object);
  for (const [key, item] of entries) object[String(key)] = toRemap(item);
  return object;
}
