// Paths into values: `.a.b[2]`, `%x`, `var.(a | b)`. The code generator describes a path as
// position-independent bytes (compiler/codegen/constants.ts writes them):
//
//   u32 segment count; then per segment: u32 kind
//     field:    u32 byte length, key bytes, zero padding to a multiple of 4
//     index:    i64 index (negative counts from the end), at a 4-byte aligned address
//     coalesce: u32 n, then n × (u32 byte length, key bytes, padding to 4)
//
// A "key record" below is the address of one (u32 length, key bytes) pair. Writes go through a cell (the
// u32 slot holding a root: `.`, `%` or a variable) and copy every shared container they pass through.

import {
  Value,
  Tag,
  NULL,
  alloc,
  ENTRY_SIZE,
  tagOf,
  share,
  owned,
  isShared,
  newArray,
  arrayLen,
  arrayItems,
  arrayGet,
  arrayPush,
  arrayTruncate,
  newObject,
  objectLen,
  objectFind,
  objectInsertAt,
  objectRemoveAt,
} from './value';
import { metricCell, metricSet, metricRemove } from './metric';
import { fail } from './error';
import { mayDescend } from './depth';
import { bufferNew, bufferAscii, bufferData, bufferLength } from './buffer';
import { writeInt } from './codec/number';
import { PathSegmentKind } from '../abi/wire/path';

// @ts-ignore: decorator
@inline function padded(len: usize): usize {
  return (len + 3) & ~3;
}

// @ts-ignore: decorator
@inline function keyLen(key: usize): usize {
  return <usize>load<u32>(key);
}

// @ts-ignore: decorator
@inline function keyBytes(key: usize): usize {
  return key + 4;
}

/** The key record after `key`. */
// @ts-ignore: decorator
@inline function nextKey(key: usize): usize {
  return key + 4 + padded(keyLen(key));
}

/** The segment after `seg`. */
function nextSegment(seg: usize): usize {
  switch (load<u32>(seg)) {
    case PathSegmentKind.Field:
      return nextKey(seg + 4);
    case PathSegmentKind.Index:
      return seg + 12;
  }
  let key = seg + 8;
  for (let i: u32 = 0, n = load<u32>(seg + 4); i < n; i++) key = nextKey(key);
  return key;
}

/**
 * The key record a field or coalesce segment names in object `o` (any value): for a coalesce segment the
 * first of its keys present in `o`, or 0 when none is.
 */
function presentKey(seg: usize, o: Value): usize {
  if (load<u32>(seg) == PathSegmentKind.Field) return seg + 4;
  if (tagOf(o) != Tag.Object) return 0;
  let key = seg + 8;
  for (let i: u32 = 0, n = load<u32>(seg + 4); i < n; i++) {
    if (objectFind(o, keyBytes(key), keyLen(key)) >= 0) return key;
    key = nextKey(key);
  }
  return 0;
}

/** The key record a write through a field or coalesce segment uses: the present one, else the last one. */
function writeKey(seg: usize, o: Value): usize {
  const present = presentKey(seg, o);
  if (present != 0) return present;
  let key = seg + 8;
  for (let i: u32 = 1, n = load<u32>(seg + 4); i < n; i++) key = nextKey(key);
  return key;
}

/** Position of an index segment in an array of `len` items (negative when it falls before the start). */
// @ts-ignore: decorator
@inline function indexPosition(seg: usize, len: usize): i64 {
  const index = load<i64>(seg + 4);
  return index < 0 ? <i64>len + index : index;
}

/** Index of the entry or item `seg` selects in `v`, or -1 when there is none. */
function childPosition(v: Value, seg: usize): isize {
  if (load<u32>(seg) == PathSegmentKind.Index) {
    if (tagOf(v) != Tag.Array) return -1;
    const at = indexPosition(seg, arrayLen(v));
    return at >= 0 && at < <i64>arrayLen(v) ? <isize>at : -1;
  }
  if (tagOf(v) != Tag.Object) return -1;
  const key = presentKey(seg, v);
  if (key == 0) return -1;
  const at = objectFind(v, keyBytes(key), keyLen(key));
  return at >= 0 ? at : -1;
}

/** The child `seg` selects in `v`, or 0 when there is none. */
function child(v: Value, seg: usize): Value {
  const at = childPosition(v, seg);
  return at < 0 ? 0 : childAt(v, seg, <usize>at);
}

/** The value at `path` in `root`, or 0 when the path leads nowhere. */
function lookup(root: Value, path: usize): Value {
  let v = root;
  let seg = path + 4;
  for (let i: u32 = 0, n = load<u32>(path); i < n; i++) {
    v = child(v, seg);
    if (v == 0) return 0;
    seg = nextSegment(seg);
  }
  return v;
}

/** The value at `path` in `root`; null when absent (a read of a missing path is null in VRL). */
export function path_get(root: Value, path: usize): Value {
  const v = lookup(root, path);
  return v == 0 ? NULL : share(v);
}

export function path_exists(root: Value, path: usize): i32 {
  return lookup(root, path) != 0 ? 1 : 0;
}

/**
 * The value at `path` under the root in `cell`, for `.a = push(.a, item)` (or `append`, `set`) to change in
 * place and store back: unlike a read it is not marked shared, and the shared containers on the way are
 * copied first, as a write copies them, so it is marked shared only when something else holds it too. Null
 * when the path leads nowhere (nothing copied then); through a metric's view, a plain read.
 */
export function path_take(cell: usize, path: usize): Value {
  if (cell == metricCell()) return path_get(load<u32>(cell), path);
  if (lookup(load<u32>(cell), path) == 0) return NULL;
  let slot = cell;
  let seg = path + 4;
  for (let i: u32 = 0, n = load<u32>(path); i < n; i++) {
    const container = ownedAt(slot);
    slot = childSlotAt(container, seg, <usize>childPosition(container, seg));
    seg = nextSegment(seg);
  }
  return load<u32>(slot);
}

// ---- writes --------------------------------------------------------------------------------------------

/** Address of the value slot of object entry `i` (stable until the object grows). */
// @ts-ignore: decorator
@inline function objectValueSlot(o: Value, i: usize): usize {
  return <usize>load<u32>(o, 12) + i * ENTRY_SIZE + 8;
}

// @ts-ignore: decorator
@inline function arrayItemSlot(a: Value, i: usize): usize {
  return arrayItems(a) + (i << 2);
}

/** The value in `slot`, made writable: copied when shared and stored back. */
function ownedAt(slot: usize): Value {
  const v = load<u32>(slot);
  const o = owned(v);
  if (o != v) store<u32>(slot, o);
  return o;
}

/**
 * The most items an assignment may pad an array to. VRL pads with nulls up to any index (and runs out of
 * memory on a huge one); here an array's item slots must stay addressable in wasm32 memory, so a write
 * that would need more fails with an error naming the index.
 */
export const MAX_PADDED_ARRAY: i64 = 1 << 28;

function failIndex(seg: usize): usize {
  const b = bufferNew(96);
  bufferAscii(b, 'cannot assign at index ');
  writeInt(b, load<i64>(seg + 4));
  bufferAscii(b, ': an array grows to at most ');
  writeInt(b, MAX_PADDED_ARRAY);
  bufferAscii(b, ' items');
  fail(bufferData(b), bufferLength(b));
  return 0;
}

/**
 * Makes the container in `slot` fit segment `seg` (an object or an array the caller may write, replacing
 * anything else) and returns the slot of the child the segment selects, creating it (as null) if needed;
 * 0 (message pending) when the array would grow beyond MAX_PADDED_ARRAY.
 * Arrays grow with nulls; a negative index before the start prepends, as VRL does (`[1]`, `[-3]` →
 * `[x, null, 1]`).
 */
function childSlot(slot: usize, seg: usize): usize {
  const current = load<u32>(slot);
  if (load<u32>(seg) != PathSegmentKind.Index) {
    let o: Value;
    if (tagOf(current) == Tag.Object) {
      o = ownedAt(slot);
    } else {
      o = newObject(0);
      store<u32>(slot, o);
    }
    const key = writeKey(seg, o);
    let i = objectFind(o, keyBytes(key), keyLen(key));
    if (i < 0) {
      i = -i - 1;
      objectInsertAt(o, <usize>i, keyBytes(key), keyLen(key), NULL);
    }
    return objectValueSlot(o, <usize>i);
  }
  const isArray = tagOf(current) == Tag.Array;
  const len: usize = isArray ? arrayLen(current) : 0;
  const at = indexPosition(seg, len);
  if (at >= MAX_PADDED_ARRAY || at < <i64>len - MAX_PADDED_ARRAY) return failIndex(seg);
  if (at < 0) {
    const a = newArray(len + <usize>-at);
    for (let k: i64 = 0; k < -at; k++) arrayPush(a, NULL);
    const shared = isArray && isShared(current);
    for (let k: usize = 0; k < len; k++) {
      const item = arrayGet(current, k);
      arrayPush(a, shared ? share(item) : item);
    }
    store<u32>(slot, a);
    return arrayItemSlot(a, 0);
  }
  let a: Value;
  if (isArray) {
    a = ownedAt(slot);
  } else {
    a = newArray(<usize>at + 1);
    store<u32>(slot, a);
  }
  while (<i64>arrayLen(a) <= at) arrayPush(a, NULL);
  return arrayItemSlot(a, <usize>at);
}

/** The field keys `metricKeys` resolves a path to: two (u32 address, u32 length) pairs. */
const METRIC_KEYS = memory.data(16, 4);

/**
 * Resolves a path through the metric view in `root` to its field keys at METRIC_KEYS (a coalesce segment
 * to the key a write uses); returns their count, or -1 when the path is longer than two segments or holds
 * an index, which no metric field allows.
 */
function metricKeys(root: Value, path: usize): i32 {
  const count = load<u32>(path);
  if (count > 2) return -1;
  let v = root;
  let seg = path + 4;
  for (let i: u32 = 0; i < count; i++) {
    if (load<u32>(seg) == PathSegmentKind.Index) return -1;
    const key = writeKey(seg, v);
    store<u32>(METRIC_KEYS + ((<usize>i) << 3), <u32>keyBytes(key));
    store<u32>(METRIC_KEYS + ((<usize>i) << 3), <u32>keyLen(key), 4);
    const next = child(v, seg);
    v = next == 0 ? NULL : next;
    seg = nextSegment(seg);
  }
  return <i32>count;
}

/**
 * Stores `v` at `path` under the root in `cell`, creating what is missing (VRL's assignment); returns
 * false (message pending) when an index is beyond MAX_PADDED_ARRAY. Through a metric's view, only what
 * Vector allows is stored (stdlib-as/metric.ts); the rest is ignored.
 */
export function path_set(cell: usize, path: usize, v: Value): bool {
  if (cell == metricCell() && !metricSet(METRIC_KEYS, metricKeys(load<u32>(cell), path), v)) return true;
  let slot = cell;
  let seg = path + 4;
  for (let i: u32 = 0, n = load<u32>(path); i < n; i++) {
    slot = childSlot(slot, seg);
    if (slot == 0) return false;
    seg = nextSegment(seg);
  }
  store<u32>(slot, v);
  return true;
}

/**
 * Removes the value at `path` under the root in `cell` (`del`); returns it, or null when absent. With
 * `compact`, containers left empty by the removal are removed from their parents too, up to the root.
 * Removing the root itself leaves an empty object. Through a metric's view, only what Vector allows is
 * removed, from the metric and the view (without compacting), and the metric's value is returned; other
 * paths are left alone and give null.
 */
export function path_remove(cell: usize, path: usize, compact: i32): Value {
  const count = load<u32>(path);
  if (cell == metricCell()) {
    const removed = metricRemove(METRIC_KEYS, metricKeys(load<u32>(cell), path));
    if (removed == 0) return NULL;
    const positions = locate(load<u32>(cell), path);
    if (positions != 0) removeBelow(cell, path + 4, count, false, positions);
    return removed;
  }
  if (count == 0) {
    const root = load<u32>(cell);
    store<u32>(cell, newObject(0));
    return root;
  }
  const positions = locate(load<u32>(cell), path);
  if (positions == 0) return NULL;
  // removeBelow recurses once per segment.
  if (!mayDescend(<i32>count)) return NULL;
  return removeBelow(cell, path + 4, count, compact != 0, positions);
}

/**
 * The index each segment of `path` selects on the way down from `root`, as u32s in a fresh block; 0 when
 * the path leads nowhere. A removal finds them first: it copies the shared containers it passes, which it
 * must not do for a path that is absent.
 */
function locate(root: Value, path: usize): usize {
  const count = load<u32>(path);
  const positions = alloc((<usize>count) << 2);
  let v = root;
  let seg = path + 4;
  for (let i: u32 = 0; i < count; i++) {
    const at = childPosition(v, seg);
    if (at < 0) return 0;
    store<u32>(positions + ((<usize>i) << 2), <u32>at);
    v = childAt(v, seg, <usize>at);
    seg = nextSegment(seg);
  }
  return positions;
}

/**
 * Removes along `left` segments from `seg` below the container in `slot`, which holds the path, at the
 * indexes `positions` holds (from `locate`).
 */
function removeBelow(slot: usize, seg: usize, left: u32, compact: bool, positions: usize): Value {
  const container = ownedAt(slot);
  const at = <usize>load<u32>(positions);
  if (left == 1) return removeAt(container, seg, at);
  const next = childSlotAt(container, seg, at);
  const removed = removeBelow(next, nextSegment(seg), left - 1, compact, positions + 4);
  if (compact && isEmptyContainer(childAt(container, seg, at))) removeAt(container, seg, at);
  return removed;
}

// @ts-ignore: decorator
@inline function childSlotAt(container: Value, seg: usize, at: usize): usize {
  return load<u32>(seg) == PathSegmentKind.Index ? arrayItemSlot(container, at) : objectValueSlot(container, at);
}

// @ts-ignore: decorator
@inline function childAt(container: Value, seg: usize, at: usize): Value {
  return load<u32>(childSlotAt(container, seg, at));
}

function removeAt(container: Value, seg: usize, at: usize): Value {
  if (load<u32>(seg) != PathSegmentKind.Index) return objectRemoveAt(container, at);
  const removed = arrayGet(container, at);
  const len = arrayLen(container);
  const slot = arrayItemSlot(container, at);
  memory.copy(slot, slot + 4, (len - 1 - at) << 2);
  arrayTruncate(container, len - 1);
  return removed;
}

function isEmptyContainer(v: Value): bool {
  const tag = tagOf(v);
  return (tag == Tag.Array && arrayLen(v) == 0) || (tag == Tag.Object && objectLen(v) == 0);
}
