// Reading and moving fields of events decoded to remap values, for the sinks that reshape events before they
// encode them (elasticsearch's `id_key` and data stream fields, splunk_hec_logs' timestamp and indexed fields,
// loki's removed label fields).

import { lossyText } from '../../../runtime/engine.js';
import { type RemapValue, Timestamp } from '../../../runtime/index.js';
import { parseFieldPath } from '../../config/template.js';

/** The field names of an event field path (`.a.b`, `a.b`); undefined for none (an empty path), a metadata
 * path or one through an array, which lead to no event field here. */
export function eventFieldPath(text: string): string[] | undefined {
  if (text === '') return undefined;
  const { metadata, segments } = parseFieldPath(text);
  if (metadata || segments.some((segment) => 'index' in segment)) return undefined;
  return segments.map((segment) => (segment as { field: string }).field);
}

export function isObject(value: RemapValue | undefined): value is { [key: string]: RemapValue } {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    !(value instanceof Timestamp)
  );
}

/**
 * The field at `path` taken out of a decoded event that is only read on (flattened, serialized): left
 * undefined in its object, where a `delete` turns the object into a slow dictionary. Undefined when absent.
 */
export function takeField(event: RemapValue, path: readonly string[]): RemapValue | undefined {
  const object = holderOf(event, path);
  if (object === undefined) return undefined;
  const last = path.at(-1)!;
  const value = object[last];
  if (value !== undefined) (object as Record<string, RemapValue | undefined>)[last] = undefined;
  return value;
}

/** The object that holds the field at `path`, or undefined when there is none. */
function holderOf(event: RemapValue, path: readonly string[]): { [key: string]: RemapValue } | undefined {
  let object = event;
  for (let i = 0; i < path.length - 1; i++) {
    if (!isObject(object)) return undefined;
    object = object[path[i]!]!;
  }
  return isObject(object) ? object : undefined;
}

/** A value as Vector's `to_string_lossy` prints it: text as is, a timestamp in RFC 3339, the rest as JSON. */
export function lossyString(value: RemapValue): string {
  if (typeof value === 'string' || value instanceof Uint8Array) return lossyText(value);
  if (value instanceof Timestamp || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? Number(item) : item));
}
