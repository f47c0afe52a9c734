// Metric events as remap sees them (docs/abi.md §2.3). A metric record carries Vector's native metric object;
// the program runs on Vector's VRL view of it instead — `{name, namespace?, tags?, timestamp?, interval_ms?,
// kind, type}`, without the value — and, as Vector's `VrlTarget::Metric`, every write or delete through `.`
// is checked when it happens: an allowed one changes the native metric (and the view), any other is ignored
// without an error. The event written afterwards is the native metric, its value untouched, so a metric
// always stays exactly one metric.

import {
  Value,
  Tag,
  NULL,
  tagOf,
  share,
  owned,
  newObject,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  objectFind,
  objectGet,
  objectSet,
  objectSetInOrder,
  objectRemoveAt,
  newInt,
  intOf,
  floatOf,
  bytesPtr,
  bytesLen,
} from './value';
import { textBytes } from './error';
import { equalsAscii } from './text';

/** The fields of the view taken from the native metric, then `type` (read only). */
const enum Field {
  Name = 0,
  Namespace = 1,
  Tags = 2,
  Timestamp = 3,
  IntervalMs = 4,
  Kind = 5,
  Type = 6,
}
const FIELDS: StaticArray<string> = ['name', 'namespace', 'tags', 'timestamp', 'interval_ms', 'kind', 'type'];

/** Vector's metric value types, as keys of the native object: exactly one of them holds the value. */
export const VALUE_TYPES: StaticArray<string> = [
  'counter',
  'gauge',
  'set',
  'distribution',
  'aggregated_histogram',
  'aggregated_summary',
  'sketch',
];
/** The view's `type` of each value type (Vector's `MetricValue::as_name`). */
const TYPE_NAMES: StaticArray<string> = [
  'counter',
  'gauge',
  'set',
  'distribution',
  'aggregated histogram',
  'aggregated summary',
  'agent dd sketch',
];

/** The cell holding the view while the program runs on a metric; 0 while it runs on a log or a trace. */
let viewCell: usize = 0;
/** The native metric behind the view. */
let native: Value = 0;

/** The cell whose writes and deletes follow the metric rules, or 0 when none does. */
// @ts-ignore: decorator
@inline export function metricCell(): usize {
  return viewCell;
}

/**
 * The value the program runs on in `cell`: for a metric its view (the metric is kept for the writes and the
 * output), otherwise the event itself.
 */
export function targetOf(cell: usize, isMetric: bool, event: Value): Value {
  if (!isMetric) {
    viewCell = 0;
    return event;
  }
  viewCell = cell;
  native = event;
  return viewOf(event);
}

/** The event the program's run produced: the native metric for a metric, otherwise `.` in `cell`. */
export function producedEvent(cell: usize): Value {
  return viewCell != 0 ? native : load<u32>(cell);
}

function fieldOf(key: usize, keyLen: usize): i32 {
  for (let i = 0; i < FIELDS.length; i++) if (equalsAscii(key, keyLen, FIELDS[i])) return i;
  return -1;
}

function viewOf(metric: Value): Value {
  const view = newObject(FIELDS.length);
  let type = -1;
  for (let i: usize = 0, n = objectLen(metric); i < n; i++) {
    const key = objectKeyPtr(metric, i);
    const keyLen = objectKeyLen(metric, i);
    const field = fieldOf(key, keyLen);
    // Shared: the view and the metric hold the same values, so whoever writes copies first.
    if (field >= 0 && field != Field.Type) objectSetInOrder(view, key, keyLen, share(objectValue(metric, i)));
    for (let t = 0; t < VALUE_TYPES.length; t++) if (equalsAscii(key, keyLen, VALUE_TYPES[t])) type = t;
  }
  if (type >= 0) {
    const key = textBytes(FIELDS[Field.Type]);
    objectSet(view, bytesPtr(key), bytesLen(key), textBytes(TYPE_NAMES[type]));
  }
  return view;
}

// Metric paths arrive resolved to their field keys: `count` pairs of (u32 address, u32 length) at `keys`,
// or `count` -1 when the path holds an index (never a valid metric path).

// @ts-ignore: decorator
@inline function keyPtr(keys: usize, i: i32): usize {
  return <usize>load<u32>(keys + ((<usize>i) << 3));
}
// @ts-ignore: decorator
@inline function keyLength(keys: usize, i: i32): usize {
  return <usize>load<u32>(keys + ((<usize>i) << 3), 4);
}

/**
 * Applies `.<keys> = v` to the native metric when Vector allows it; returns whether it did (the view then
 * takes `v` as assigned). Allowed: `name`, `namespace` (strings), `timestamp` (a timestamp), `interval_ms`
 * (an integer or float, truncated, in 1..2^32-1), `kind` (`incremental` or `absolute`), `tags` (an object:
 * its string values become the tags) and `tags.<name>` (a string sets the tag, null removes it, anything
 * else leaves it as it was — still assigned in the view, as in Vector).
 */
export function metricSet(keys: usize, count: i32, v: Value): bool {
  if (count < 1 || count > 2) return false;
  const key = keyPtr(keys, 0);
  const keyLen = keyLength(keys, 0);
  const field = fieldOf(key, keyLen);
  if (count == 2) {
    if (field != Field.Tags) return false;
    setTag(key, keyLen, keyPtr(keys, 1), keyLength(keys, 1), v);
    return true;
  }
  let value = v;
  switch (field) {
    case Field.Name:
    case Field.Namespace:
      if (tagOf(v) != Tag.Bytes) return false;
      break;
    case Field.Timestamp:
      if (tagOf(v) != Tag.Timestamp) return false;
      break;
    case Field.IntervalMs:
      value = intervalOf(v);
      if (value == 0) return false;
      break;
    case Field.Kind:
      if (
        tagOf(v) != Tag.Bytes ||
        !(equalsAscii(bytesPtr(v), bytesLen(v), 'incremental') || equalsAscii(bytesPtr(v), bytesLen(v), 'absolute'))
      ) {
        return false;
      }
      break;
    case Field.Tags:
      if (tagOf(v) != Tag.Object) return false;
      value = tagsOf(v);
      if (objectLen(value) == 0) {
        removeField(key, keyLen);
        return true;
      }
      break;
    default:
      return false;
  }
  // The key's bytes are the path's, in the program's constants: they outlive the batch.
  objectSet(native, key, keyLen, value);
  return true;
}

/** `interval_ms` from an integer or a float (truncated), or 0 when it is not in 1..2^32-1. */
function intervalOf(v: Value): Value {
  let ms: i64;
  if (tagOf(v) == Tag.Int) ms = intOf(v);
  else if (tagOf(v) == Tag.Float) ms = <i64>floatOf(v);
  else return 0;
  return ms >= 1 && ms <= <i64>u32.MAX_VALUE ? newInt(ms) : 0;
}

/** The tags an object assigned to `.tags` gives: its string values. */
function tagsOf(o: Value): Value {
  const tags = newObject(objectLen(o));
  for (let i: usize = 0, n = objectLen(o); i < n; i++) {
    const value = objectValue(o, i);
    if (tagOf(value) == Tag.Bytes) objectSetInOrder(tags, objectKeyPtr(o, i), objectKeyLen(o, i), share(value));
  }
  return tags;
}

function setTag(tagsKey: usize, tagsKeyLen: usize, name: usize, nameLen: usize, v: Value): void {
  const current = objectGet(native, tagsKey, tagsKeyLen);
  if (tagOf(v) == Tag.Bytes) {
    const tags = current != 0 && tagOf(current) == Tag.Object ? owned(current) : newObject(1);
    objectSet(tags, name, nameLen, v);
    objectSet(native, tagsKey, tagsKeyLen, tags);
  } else if (tagOf(v) == Tag.Null && current != 0 && tagOf(current) == Tag.Object) {
    const at = objectFind(current, name, nameLen);
    if (at < 0) return;
    const tags = owned(current);
    objectRemoveAt(tags, <usize>at);
    objectSet(native, tagsKey, tagsKeyLen, tags);
  }
}

/**
 * Applies `del(.<keys>)` to the native metric when Vector allows it (`namespace`, `timestamp`,
 * `interval_ms`, `tags`, `tags.<name>`); returns what it removed (null when absent), or 0 when the path
 * may not be deleted.
 */
export function metricRemove(keys: usize, count: i32): Value {
  if (count < 1 || count > 2) return 0;
  const key = keyPtr(keys, 0);
  const keyLen = keyLength(keys, 0);
  const field = fieldOf(key, keyLen);
  if (count == 1) {
    if (field != Field.Namespace && field != Field.Timestamp && field != Field.IntervalMs && field != Field.Tags)
      return 0;
    return removeField(key, keyLen);
  }
  if (field != Field.Tags) return 0;
  const current = objectGet(native, key, keyLen);
  if (current == 0 || tagOf(current) != Tag.Object) return NULL;
  const at = objectFind(current, keyPtr(keys, 1), keyLength(keys, 1));
  if (at < 0) return NULL;
  const tags = owned(current);
  const removed = objectRemoveAt(tags, <usize>at);
  objectSet(native, key, keyLen, tags);
  return removed;
}

/** Removes a field of the native metric; returns its value, or null when absent. */
function removeField(key: usize, keyLen: usize): Value {
  const at = objectFind(native, key, keyLen);
  return at < 0 ? NULL : objectRemoveAt(native, <usize>at);
}
