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

/** The value at `path` of an event; `take` removes it from the event. */
export function fieldAt(event: RemapValue, path: readonly string[], take = false): RemapValue | undefined {
  let object = event;
  for (const name of path.slice(0, -1)) {
    if (!isObject(object)) return undefined;
    object = object[name]!;
  }
  if (!isObject(object)) return undefined;
  const last = path.at(-1)!;
  const value = object[last];
  if (take) delete object[last];
  return value;
}

/** A value as Vector's `to_string_lossy` prints it: text as is, a timestamp in RFC 3339, the rest as JSON. */
export function lossyString(value: RemapValue): string {
  if (typeof value === 'string' || value instanceof Uint8Array) return lossyText(value);
  if (value instanceof Timestamp || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? Number(item) : item));
}
