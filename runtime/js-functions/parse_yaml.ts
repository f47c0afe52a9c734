import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { stringArg } from './support/args.js';
import { library } from './support/library.js';

const yaml = library<typeof import('yaml')>('yaml');

/**
 * `parse_yaml(value)`: a YAML 1.2 document (core schema, as serde_yaml) as remap values: integers stay
 * integers (read as bigint), mappings become objects with their keys as text.
 */
export const parse_yaml: JsFunction = ([value]) => {
  let document: unknown;
  try {
    document = yaml().parse(stringArg(value!), { intAsBigInt: true, maxAliasCount: 100, uniqueKeys: false });
  } catch (e) {
    throw new Error(`unable to parse yaml: ${(e as Error).message.split('\n')[0]}`);
  }
  return toRemap(document);
};

function toRemap(v: unknown): RemapValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isNaN(v) ? 0 : v;
  if (typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(toRemap);
  const object: Record<string, RemapValue> = Object.create(null);
  const entries = v instanceof Map ? [...v.entries()] : Object.entries(v as object);
  for (const [key, item] of entries) object[String(key)] = toRemap(item);
  return object;
}
