// The remap value model in linear memory. A `Value` is the address of a 16-byte record:
//
//   +0 u8  tag      (Tag, abi/wire/values.ts)
//   +1 u8  flags    (SHARED: the record is reachable from more than one place; writers copy it first)
//   +4 u32 a        Bytes: length · Array/Object: count · Regex: address of its program (stdlib-as/regex-vm.ts)
//                   Timestamp: nanoseconds past the second (0–999,999,999)
//   +8 u64 b        Int: i64 · Float: f64 · Timestamp: i64 seconds since the epoch · Bool: 0/1
//                   Bytes: u32 data address at +8 · Regex: pattern address at +8, pattern length at +12
//                   Array/Object: u32 capacity at +8, u32 items address at +12
//
// Array items are `Value`s (4 bytes each). Object entries are 12 bytes (key address, key length, value),
// kept sorted by key bytes (VRL's BTreeMap order). Null/true/false are static records; everything else
// lives in the arena. Address 0 is never a value: functions return 0 to signal an error (see error.ts).
//
// No managed AssemblyScript objects (`new`, String, Array<T>, Map) may be created: the module runs under
// `--runtime stub` and the arena below owns the heap.

import { Tag } from '../abi/wire/values';
import { RuntimeState, TrapCause } from '../abi/wire/batch';

export type Value = usize;

export { Tag };

export const SHARED: u8 = 1;
export const RECORD_SIZE: usize = 16;
export const ENTRY_SIZE: usize = 12;

// ---- arena ---------------------------------------------------------------------------------------------

let arenaTop: usize = (__heap_base + 15) & ~15;
/**
 * Word-at-a-time readers (codec/scan.ts, compareBytes) may load up to this many bytes past the end of a
 * value: the arena keeps them inside memory after everything it hands out.
 */
export const READ_SLACK: usize = 8;
let arenaEnd: usize = ((<usize>memory.size()) << 16) - READ_SLACK;
/** Arena address below which allocations survive `arenaReset` (program constants, variable slots). */
let arenaFloor: usize = (__heap_base + 15) & ~15;

/** Bump-allocates `size` bytes, 8-byte aligned, growing memory as needed. Never returns 0: an allocation the
 * memory cannot hold traps, after recording why in the runtime state (below). */
// @ts-ignore: decorator
@inline
export function alloc(size: usize): usize {
  const ptr = arenaTop;
  // Compared as a difference: `ptr + size` wraps when `size` is near 4 GiB.
  if (size > arenaEnd - ptr) return allocSlow(ptr, size);
  arenaTop = (ptr + size + 7) & ~7;
  return ptr;
}

/** Shared with the host (docs/abi.md §5): the u32 fields of `RuntimeState`. */
const RUNTIME_STATE = memory.data(RuntimeState.Size, 4);

export function runtime_state(): usize {
  return RUNTIME_STATE;
}

/** Traps after recording `cause`: the one way out of an allocation that cannot be satisfied. */
export function trapWith(cause: TrapCause): void {
  store<u32>(RUNTIME_STATE, <u32>cause, RuntimeState.TrapCause);
  unreachable();
}

/** Records the index of the record (or line) the driver runs now, for the host to know which one trapped. */
// @ts-ignore: decorator
@inline
export function setRunning(index: u32): void {
  store<u32>(RUNTIME_STATE, index, RuntimeState.Running);
}

const WASM32_PAGES: u64 = 65536;

function allocSlow(ptr: usize, size: usize): usize {
  // In u64: neither the end of the block nor the memory it needs may wrap.
  const top: u64 = (<u64>ptr + <u64>size + 7) & ~(<u64>7);
  const neededPages: u64 = (top + <u64>READ_SLACK + 0xffff) >> 16;
  const limit = <u64>load<u32>(RUNTIME_STATE, RuntimeState.LimitPages);
  const limitPages: u64 = limit == 0 || limit > WASM32_PAGES ? WASM32_PAGES : limit;
  if (neededPages > limitPages) trapWith(neededPages > WASM32_PAGES ? TrapCause.AddressSpace : TrapCause.MemoryLimit);
  const current = <u64>memory.size();
  // Grow by at least half again, within the limit.
  let pages = neededPages + (current >> 1);
  if (pages > limitPages) pages = limitPages;
  if (memory.grow(<i32>(pages - current)) < 0 && memory.grow(<i32>(neededPages - current)) < 0)
    trapWith(TrapCause.GrowRefused);
  arenaEnd = ((<usize>memory.size()) << 16) - READ_SLACK;
  arenaTop = <usize>top;
  return ptr;
}

/** Bytes `alloc` can hand out without growing memory. */
export function arenaRoom(): usize {
  return arenaEnd - arenaTop;
}

/** Gives back the end of `ptr`, the last block allocated, so that it holds `size` bytes. */
export function allocShrink(ptr: usize, size: usize): void {
  arenaTop = (ptr + size + 7) & ~7;
}

/** Room for `count` items of `size` bytes; a count whose size cannot be addressed traps instead of wrapping. */
export function allocItems(count: usize, size: usize): usize {
  const bytes = <u64>count * <u64>size;
  if (bytes > <u64>u32.MAX_VALUE) trapWith(TrapCause.AddressSpace);
  return alloc(<usize>bytes);
}

/** Keeps everything allocated so far across resets (called once the program's constants are built). */
export function arenaSetFloor(): void {
  arenaFloor = arenaTop;
}

/** Number of resets so far: memory a module reuses across calls (regex scratch) is valid within one. */
let arenaResets: u32 = 0;

/** Frees everything allocated since the floor was set: called after each batch. */
export function arenaReset(): void {
  arenaTop = arenaFloor;
  arenaResets++;
}

export function arenaGeneration(): u32 {
  return arenaResets;
}

export function arenaUsed(): usize {
  return arenaTop - arenaFloor;
}

/**
 * `memory.copy` (overlapping ranges allowed) with short lengths done inline: the engine runs `memory.copy`
 * as a call out of wasm, which costs more than moving the few bytes of a typical key or small string.
 */
export function copyMemory(dst: usize, src: usize, len: usize): void {
  if (len > 32) {
    memory.copy(dst, src, len);
  } else if (len > 16) {
    // Four words, all read before any is written.
    const head = load<u64>(src);
    const second = load<u64>(src, 8);
    const last = load<u64>(src + len - 8);
    const before = load<u64>(src + len - 16);
    store<u64>(dst, head);
    store<u64>(dst, second, 8);
    store<u64>(dst + len - 16, before);
    store<u64>(dst + len - 8, last);
  } else if (len >= 8) {
    // Two words that overlap when len < 16, both read before either is written.
    const head = load<u64>(src);
    const tail = load<u64>(src + len - 8);
    store<u64>(dst, head);
    store<u64>(dst + len - 8, tail);
  } else if (len >= 4) {
    const head = load<u32>(src);
    const tail = load<u32>(src + len - 4);
    store<u32>(dst, head);
    store<u32>(dst + len - 4, tail);
  } else if (len > 0) {
    const first = load<u8>(src);
    const middle = load<u8>(src + (len >> 1));
    const last = load<u8>(src + len - 1);
    store<u8>(dst, first);
    store<u8>(dst + (len >> 1), middle);
    store<u8>(dst + len - 1, last);
  }
}

// ---- records -------------------------------------------------------------------------------------------

const STATIC = memory.data(48, 16);
export const NULL: Value = STATIC;
export const FALSE: Value = STATIC + 16;
export const TRUE: Value = STATIC + 32;
store<u8>(FALSE, Tag.Bool);
store<u8>(TRUE, Tag.Bool);
store<u64>(TRUE, 1, 8);

// @ts-ignore: decorator
@inline export function tagOf(v: Value): Tag {
  return <Tag>load<u8>(v);
}

// @ts-ignore: decorator
@inline function record(tag: Tag): Value {
  const v = alloc(RECORD_SIZE);
  store<u64>(v, <u64>tag);
  return v;
}

// @ts-ignore: decorator
@inline export function newBool(b: bool): Value {
  return b ? TRUE : FALSE;
}
// @ts-ignore: decorator
@inline export function boolOf(v: Value): bool {
  return v == TRUE;
}

export function newInt(n: i64): Value {
  const v = record(Tag.Int);
  store<i64>(v, n, 8);
  return v;
}
// @ts-ignore: decorator
@inline export function intOf(v: Value): i64 {
  return load<i64>(v, 8);
}

/** A float; the caller guarantees `f` is not NaN (VRL has no NaN values). */
export function newFloat(f: f64): Value {
  const v = record(Tag.Float);
  store<f64>(v, f, 8);
  return v;
}
// @ts-ignore: decorator
@inline export function floatOf(v: Value): f64 {
  return load<f64>(v, 8);
}

/**
 * A timestamp `seconds` since the epoch plus `nanos` (0–999,999,999), within chrono's range (VRL's,
 * time-range.ts): the callers check.
 */
export function newTimestamp(seconds: i64, nanos: u32): Value {
  const v = record(Tag.Timestamp);
  store<u32>(v, nanos, 4);
  store<i64>(v, seconds, 8);
  return v;
}
/** A timestamp `ns` nanoseconds after the epoch (any i64 is within range). */
export function timestampFromNanos(ns: i64): Value {
  const seconds = ns / 1_000_000_000 - (ns % 1_000_000_000 < 0 ? 1 : 0);
  return newTimestamp(seconds, <u32>(ns - seconds * 1_000_000_000));
}
// @ts-ignore: decorator
@inline export function timestampSeconds(v: Value): i64 {
  return load<i64>(v, 8);
}
// @ts-ignore: decorator
@inline export function timestampNanos(v: Value): u32 {
  return load<u32>(v, 4);
}

/** A byte string pointing at `len` bytes at `ptr` (not copied: they must outlive the batch). */
export function newBytes(ptr: usize, len: usize): Value {
  const v = record(Tag.Bytes);
  store<u32>(v, <u32>len, 4);
  store<u32>(v, <u32>ptr, 8);
  return v;
}
/** A byte string of `len` uninitialised bytes, for the caller to fill through `bytesPtr`. */
export function allocBytes(len: usize): Value {
  return newBytes(alloc(len), len);
}
/** Bytes `start`..`end` of a byte string (shared, not copied). */
export function bytesSlice(v: Value, start: usize, end: usize): Value {
  return newBytes(bytesPtr(v) + start, end - start);
}
export function copyBytes(ptr: usize, len: usize): Value {
  const v = allocBytes(len);
  copyMemory(bytesPtr(v), ptr, len);
  return v;
}
// @ts-ignore: decorator
@inline export function bytesPtr(v: Value): usize {
  return <usize>load<u32>(v, 8);
}
// @ts-ignore: decorator
@inline export function bytesLen(v: Value): usize {
  return <usize>load<u32>(v, 4);
}

/** A regex value: its compiled program (abi/regex-program.ts), and the pattern for display and encoding. */
export function newRegex(program: usize, patternPtr: usize, patternLen: usize): Value {
  const v = record(Tag.Regex);
  store<u32>(v, <u32>program, 4);
  store<u32>(v, <u32>patternPtr, 8);
  store<u32>(v, <u32>patternLen, 12);
  return v;
}
// @ts-ignore: decorator
@inline export function regexProgram(v: Value): usize {
  return <usize>load<u32>(v, 4);
}
// @ts-ignore: decorator
@inline export function regexPatternPtr(v: Value): usize {
  return <usize>load<u32>(v, 8);
}
// @ts-ignore: decorator
@inline export function regexPatternLen(v: Value): usize {
  return <usize>load<u32>(v, 12);
}

// ---- sharing -------------------------------------------------------------------------------------------

// @ts-ignore: decorator
@inline export function isShared(v: Value): bool {
  return (load<u8>(v, 1) & SHARED) != 0;
}

/** Marks a value read out of a path or variable: whoever writes into it later must copy it first. */
// @ts-ignore: decorator
@inline export function share(v: Value): Value {
  if (load<u8>(v) >= <u8>Tag.Array) store<u8>(v, load<u8>(v, 1) | SHARED, 1);
  return v;
}

// ---- arrays --------------------------------------------------------------------------------------------

export function newArray(capacity: usize): Value {
  const v = record(Tag.Array);
  const cap: usize = capacity < 4 ? 4 : capacity;
  store<u32>(v, <u32>cap, 8);
  store<u32>(v, <u32>allocItems(cap, 4), 12);
  return v;
}
// @ts-ignore: decorator
@inline export function arrayLen(a: Value): usize {
  return <usize>load<u32>(a, 4);
}
// @ts-ignore: decorator
@inline export function arrayItems(a: Value): usize {
  return <usize>load<u32>(a, 12);
}
// @ts-ignore: decorator
@inline export function arrayGet(a: Value, i: usize): Value {
  return load<u32>(arrayItems(a) + (i << 2));
}
/** Appends in place: only for arrays the caller owns (fresh, or copied because shared). */
export function arrayPush(a: Value, v: Value): void {
  const len = arrayLen(a);
  const cap = <usize>load<u32>(a, 8);
  if (len == cap) {
    const items = allocItems(cap << 1, 4);
    memory.copy(items, arrayItems(a), len << 2);
    store<u32>(a, <u32>(cap << 1), 8);
    store<u32>(a, <u32>items, 12);
  }
  store<u32>(arrayItems(a) + (len << 2), <u32>v);
  store<u32>(a, <u32>(len + 1), 4);
}
/** Shrinks the length (items beyond it are forgotten). */
// @ts-ignore: decorator
@inline export function arrayTruncate(a: Value, len: usize): void {
  store<u32>(a, <u32>len, 4);
}

// ---- objects -------------------------------------------------------------------------------------------

export function newObject(capacity: usize): Value {
  const v = record(Tag.Object);
  const cap: usize = capacity < 4 ? 4 : capacity;
  store<u32>(v, <u32>cap, 8);
  store<u32>(v, <u32>allocItems(cap, ENTRY_SIZE), 12);
  return v;
}
// @ts-ignore: decorator
@inline export function objectLen(o: Value): usize {
  return <usize>load<u32>(o, 4);
}
// @ts-ignore: decorator
@inline function entryAt(o: Value, i: usize): usize {
  return <usize>load<u32>(o, 12) + i * ENTRY_SIZE;
}
// @ts-ignore: decorator
@inline export function objectKeyPtr(o: Value, i: usize): usize {
  return <usize>load<u32>(entryAt(o, i));
}
// @ts-ignore: decorator
@inline export function objectKeyLen(o: Value, i: usize): usize {
  return <usize>load<u32>(entryAt(o, i), 4);
}
// @ts-ignore: decorator
@inline export function objectValue(o: Value, i: usize): Value {
  return load<u32>(entryAt(o, i), 8);
}
// @ts-ignore: decorator
@inline export function objectSetValueAt(o: Value, i: usize, v: Value): void {
  store<u32>(entryAt(o, i), <u32>v, 8);
}

/** Byte-wise comparison of two byte strings: negative, zero or positive. */
export function compareBytes(a: usize, aLen: usize, b: usize, bLen: usize): i32 {
  const n = aLen < bLen ? aLen : bLen;
  // Eight bytes at a time; the last word may run past the shorter string (READ_SLACK keeps that readable),
  // so a difference found there only counts below `n`.
  for (let i: usize = 0; i < n; i += 8) {
    const x = load<u64>(a + i);
    const y = load<u64>(b + i);
    if (x == y) continue;
    const at = i + <usize>(ctz(x ^ y) >> 3);
    if (at >= n) break;
    return <i32>load<u8>(a + at) - <i32>load<u8>(b + at);
  }
  return aLen < bLen ? -1 : aLen > bLen ? 1 : 0;
}

/**
 * Where a key was last found, by the address of its bytes: (u32 address, u32 index) pairs. Most searches
 * are for the keys of a program's paths, whose bytes stay put, in objects of the same shape event after
 * event, so the index found last time is usually right and one comparison confirms it.
 */
const FIND_HINT_COUNT: usize = 64;
const FIND_HINTS = memory.data(FIND_HINT_COUNT << 3, 8);

/**
 * Searches for a key. Returns its index when present, otherwise `-(insertion index) - 1`.
 */
export function objectFind(o: Value, key: usize, keyLen: usize): isize {
  const len = objectLen(o);
  const hint = FIND_HINTS + (((key >> 2) & (FIND_HINT_COUNT - 1)) << 3);
  if (<usize>load<u32>(hint) == key) {
    const at = <usize>load<u32>(hint, 4);
    if (at < len) {
      const entry = entryAt(o, at);
      if (<usize>load<u32>(entry, 4) == keyLen) {
        const entryKey = <usize>load<u32>(entry);
        if (entryKey == key || compareBytes(entryKey, keyLen, key, keyLen) == 0) return <isize>at;
      }
    }
  }
  let lo: isize = 0;
  let hi: isize = <isize>len - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareBytes(objectKeyPtr(o, mid), objectKeyLen(o, mid), key, keyLen);
    if (c == 0) {
      store<u32>(hint, <u32>key);
      store<u32>(hint, <u32>mid, 4);
      return mid;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

/** The value under `key`, or 0 when absent. */
export function objectGet(o: Value, key: usize, keyLen: usize): Value {
  const i = objectFind(o, key, keyLen);
  return i >= 0 ? objectValue(o, i) : 0;
}

/** Inserts or replaces in place (the caller owns `o`). The key bytes are referenced, not copied. */
export function objectSet(o: Value, key: usize, keyLen: usize, v: Value): void {
  const i = objectFind(o, key, keyLen);
  if (i >= 0) objectSetValueAt(o, i, v);
  else objectInsertAt(o, <usize>(-i - 1), key, keyLen, v);
}

/**
 * `objectSet` for builders whose keys tend to arrive sorted (JSON written from sorted maps, the binary
 * codec): a key after the last one is appended after one compare instead of a search.
 */
export function objectSetInOrder(o: Value, key: usize, keyLen: usize, v: Value): void {
  const len = objectLen(o);
  if (len > 0 && compareBytes(objectKeyPtr(o, len - 1), objectKeyLen(o, len - 1), key, keyLen) >= 0) {
    objectSet(o, key, keyLen, v);
  } else {
    objectInsertAt(o, len, key, keyLen, v);
  }
}

/**
 * Appends an entry after the last one whatever its key, in place: for builders that read keys in any order
 * (JSON text). Returns whether the key sorts after the previous last key; once any append returned false,
 * the builder calls `objectSortEntries` when it is done. Sorting once keeps a build of n keys O(n log n),
 * where inserting each in place costs O(n²) when they arrive in descending order.
 */
export function objectAppend(o: Value, key: usize, keyLen: usize, v: Value): bool {
  const len = objectLen(o);
  const inOrder = len == 0 || compareBytes(objectKeyPtr(o, len - 1), objectKeyLen(o, len - 1), key, keyLen) < 0;
  const slot = objectEntries(o, len) + len * ENTRY_SIZE;
  store<u32>(slot, <u32>key);
  store<u32>(slot, <u32>keyLen, 4);
  store<u32>(slot, <u32>v, 8);
  store<u32>(o, <u32>(len + 1), 4);
  return inOrder;
}

/** Copies one object entry (the two may overlap): key address and length as one word, then the value. */
// @ts-ignore: decorator
@inline function copyEntry(dst: usize, src: usize): void {
  const keyWord = load<u64>(src);
  const value = load<u32>(src, 8);
  store<u64>(dst, keyWord);
  store<u32>(dst, value, 8);
}

/**
 * Puts appended entries in key order, in place: a stable merge sort, then of equal keys the last appended
 * stays (what `objectSet` for each in turn would have left).
 */
export function objectSortEntries(o: Value): void {
  const len = objectLen(o);
  let from = <usize>load<u32>(o, 12);
  if (len <= SMALL_SORT) {
    // Most objects are small: an insertion sort in place, without the merge's scratch run. An entry stops
    // next to an equal key when there is one, so that is where duplicates show.
    let equalKeys = false;
    for (let i: usize = 1; i < len; i++) {
      const entry = from + i * ENTRY_SIZE;
      const key = load<u32>(entry);
      const keyLen = load<u32>(entry, 4);
      const value = load<u32>(entry, 8);
      let j = i;
      while (j > 0) {
        const prev = from + (j - 1) * ENTRY_SIZE;
        const order = compareBytes(load<u32>(prev), load<u32>(prev, 4), key, keyLen);
        if (order <= 0) {
          if (order == 0) equalKeys = true;
          break;
        }
        copyEntry(prev + ENTRY_SIZE, prev);
        j--;
      }
      const at = from + j * ENTRY_SIZE;
      store<u32>(at, key);
      store<u32>(at, keyLen, 4);
      store<u32>(at, value, 8);
    }
    if (equalKeys) keepLastOfEqualKeys(o, from, len);
    return;
  }
  let to = alloc(len * ENTRY_SIZE);
  for (let width: usize = 1; width < len; width <<= 1) {
    for (let lo: usize = 0; lo < len; lo += width << 1) {
      const mid = lo + width < len ? lo + width : len;
      const hi = mid + width < len ? mid + width : len;
      mergeEntries(from, lo, mid, hi, to);
    }
    const swap = from;
    from = to;
    to = swap;
  }
  // The sorted entries may sit in the scratch run, which holds `len` entries.
  if (from != <usize>load<u32>(o, 12)) store<u32>(o, <u32>len, 8);
  keepLastOfEqualKeys(o, from, len);
}

/** Objects of at most this many entries are sorted by insertion. */
const SMALL_SORT: usize = 16;

/** Makes the `len` sorted entries at `from` the object's, keeping the last of each run of equal keys
 * (they are adjacent, in append order). */
function keepLastOfEqualKeys(o: Value, from: usize, len: usize): void {
  let kept: usize = 0;
  for (let i: usize = 0; i < len; i++) {
    const entry = from + i * ENTRY_SIZE;
    if (i + 1 < len) {
      const next = entry + ENTRY_SIZE;
      if (compareBytes(load<u32>(entry), load<u32>(entry, 4), load<u32>(next), load<u32>(next, 4)) == 0) continue;
    }
    if (kept != i) copyEntry(from + kept * ENTRY_SIZE, entry);
    kept++;
  }
  store<u32>(o, <u32>from, 12);
  store<u32>(o, <u32>kept, 4);
}

/** Merges the sorted entry runs [lo, mid) and [mid, hi) of `from` into the same places of `to`. */
function mergeEntries(from: usize, lo: usize, mid: usize, hi: usize, to: usize): void {
  let i = lo;
  let j = mid;
  let out = to + lo * ENTRY_SIZE;
  while (i < mid && j < hi) {
    const a = from + i * ENTRY_SIZE;
    const b = from + j * ENTRY_SIZE;
    // Ties take the left run first, which keeps equal keys in append order.
    if (compareBytes(load<u32>(b), load<u32>(b, 4), load<u32>(a), load<u32>(a, 4)) < 0) {
      copyEntry(out, b);
      j++;
    } else {
      copyEntry(out, a);
      i++;
    }
    out += ENTRY_SIZE;
  }
  if (i < mid) memory.copy(out, from + i * ENTRY_SIZE, (mid - i) * ENTRY_SIZE);
  if (j < hi) memory.copy(out, from + j * ENTRY_SIZE, (hi - j) * ENTRY_SIZE);
}

/** Inserts a key known to be absent at index `at` (from `objectFind`), in place. */
export function objectInsertAt(o: Value, at: usize, key: usize, keyLen: usize, v: Value): void {
  const len = objectLen(o);
  const slot = objectEntries(o, len) + at * ENTRY_SIZE;
  // Appending (builders of sorted keys) shifts nothing: no call.
  if (at < len) copyMemory(slot + ENTRY_SIZE, slot, (len - at) * ENTRY_SIZE);
  store<u32>(slot, <u32>key);
  store<u32>(slot, <u32>keyLen, 4);
  store<u32>(slot, <u32>v, 8);
  store<u32>(o, <u32>(len + 1), 4);
}

/** The entries of `o`, which holds `len`, with room for one more (grown when full). */
// @ts-ignore: decorator
@inline function objectEntries(o: Value, len: usize): usize {
  const cap = <usize>load<u32>(o, 8);
  if (len < cap) return <usize>load<u32>(o, 12);
  const grown = allocItems(cap << 1, ENTRY_SIZE);
  memory.copy(grown, <usize>load<u32>(o, 12), len * ENTRY_SIZE);
  store<u32>(o, <u32>(cap << 1), 8);
  store<u32>(o, <u32>grown, 12);
  return grown;
}

/**
 * A new object with the entries of `a` and `b`, `b`'s winning where both have a key: one pass over the two
 * sorted entry lists (inserting `b`'s entries one by one shifted `a`'s every time, quadratic when both are
 * wide). The values become reachable from two objects, so they are marked shared.
 */
export function objectMerged(a: Value, b: Value): Value {
  const aLen = objectLen(a);
  const bLen = objectLen(b);
  const merged = newObject(aLen + bLen);
  const entries = <usize>load<u32>(merged, 12);
  const aEntries = <usize>load<u32>(a, 12);
  const bEntries = <usize>load<u32>(b, 12);
  let i: usize = 0;
  let j: usize = 0;
  let n: usize = 0;
  while (i < aLen && j < bLen) {
    const x = aEntries + i * ENTRY_SIZE;
    const y = bEntries + j * ENTRY_SIZE;
    const order = compareBytes(load<u32>(x), load<u32>(x, 4), load<u32>(y), load<u32>(y, 4));
    if (order < 0) {
      copyEntry(entries + n * ENTRY_SIZE, x);
      i++;
    } else {
      copyEntry(entries + n * ENTRY_SIZE, y);
      j++;
      if (order == 0) i++;
    }
    n++;
  }
  for (; i < aLen; i++) copyEntry(entries + n++ * ENTRY_SIZE, aEntries + i * ENTRY_SIZE);
  for (; j < bLen; j++) copyEntry(entries + n++ * ENTRY_SIZE, bEntries + j * ENTRY_SIZE);
  for (let k: usize = 0; k < n; k++) share(<Value>load<u32>(entries + k * ENTRY_SIZE, 8));
  store<u32>(merged, <u32>n, 4);
  return merged;
}

/**
 * `from`'s entries over those of `o`, which the caller may write: in place when `from` is small beside `o`
 * (each insertion moves the entries after it), else into a merged copy. `from`'s values become shared.
 */
export function objectMergeInto(o: Value, from: Value): Value {
  const n = objectLen(from);
  if (n << 4 > objectLen(o)) return objectMerged(o, from);
  for (let i: usize = 0; i < n; i++) {
    objectSet(o, objectKeyPtr(from, i), objectKeyLen(from, i), share(objectValue(from, i)));
  }
  return o;
}

/** Removes entry `i` in place; returns its value. */
export function objectRemoveAt(o: Value, i: usize): Value {
  const removed = objectValue(o, i);
  const len = objectLen(o);
  const slot = entryAt(o, i);
  copyMemory(slot, slot + ENTRY_SIZE, (len - 1 - i) * ENTRY_SIZE);
  store<u32>(o, <u32>(len - 1), 4);
  return removed;
}

/**
 * A shallow copy the caller owns. Children become reachable from two containers, so they are marked shared.
 */
export function cloneShallow(v: Value): Value {
  const tag = tagOf(v);
  if (tag == Tag.Array) {
    const len = arrayLen(v);
    const copy = newArray(len);
    memory.copy(arrayItems(copy), arrayItems(v), len << 2);
    store<u32>(copy, <u32>len, 4);
    for (let i: usize = 0; i < len; i++) share(arrayGet(copy, i));
    return copy;
  }
  if (tag == Tag.Object) {
    const len = objectLen(v);
    const copy = newObject(len);
    memory.copy(<usize>load<u32>(copy, 12), <usize>load<u32>(v, 12), len * ENTRY_SIZE);
    store<u32>(copy, <u32>len, 4);
    for (let i: usize = 0; i < len; i++) share(objectValue(copy, i));
    return copy;
  }
  return v;
}

/** `v` itself when the caller may write into it, else a shallow copy. */
// @ts-ignore: decorator
@inline export function owned(v: Value): Value {
  return isShared(v) ? cloneShallow(v) : v;
}

/** The key of entry `i` as a byte string value (pointing at the key bytes). */
export function objectKey(o: Value, i: usize): Value {
  return newBytes(objectKeyPtr(o, i), objectKeyLen(o, i));
}
