// VRL's key/value text form (`encode_key_value`, `encode_logfmt`, the logfmt codec) and `to_string_lossy`,
// the text of a value those writers and the text codecs use.

import {
  Value,
  Tag,
  TRUE,
  tagOf,
  intOf,
  floatOf,
  timestampSeconds,
  timestampNanos,
  bytesPtr,
  bytesLen,
  regexPatternPtr,
  regexPatternLen,
  arrayLen,
  arrayGet,
  newObject,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  objectFind,
  objectSet,
  objectRemoveAt,
  alloc,
  copyMemory,
} from '../value';
import {
  Buffer,
  bufferNew,
  bufferByte,
  bufferBytes,
  bufferAscii,
  bufferData,
  bufferLength,
  bufferTruncate,
} from '../buffer';
import { writeJson } from './json';
import { writeInt, writeRustFloat } from './number';
import { writeRfc3339 } from './time';
import { writeLossy } from './utf8';
import { whitespaceLength } from '../text';
import { displayEscapeEnd, logfmtQuoteEnd } from './scan';
import { mayDescend } from '../depth';

/**
 * VRL's `to_string_lossy`: strings as lossy UTF-8 (or raw with `raw`, for raw_message), numbers as Rust prints
 * them, timestamps in RFC 3339, containers as JSON, null as `null`.
 */
export function writeText(b: Buffer, v: Value, raw: bool): void {
  switch (tagOf(v)) {
    case Tag.Bytes: {
      if (raw) bufferBytes(b, bytesPtr(v), bytesLen(v));
      else writeLossy(b, bytesPtr(v), bytesLen(v));
      return;
    }
    case Tag.Int:
      return writeInt(b, intOf(v));
    case Tag.Float:
      return writeRustFloat(b, floatOf(v));
    case Tag.Bool:
      return bufferAscii(b, v == TRUE ? 'true' : 'false');
    case Tag.Timestamp:
      return writeRfc3339(b, timestampSeconds(v), timestampNanos(v));
    case Tag.Regex:
      return bufferBytes(b, regexPatternPtr(v), regexPatternLen(v));
    case Tag.Null:
      return bufferAscii(b, 'null');
  }
  writeJson(b, v);
}

/** The default delimiters: `=` between key and value, a space between fields. */
export const EQUALS = memory.data<u8>([0x3d]);
export const SPACE = memory.data<u8>([0x20]);

// The delimiters and option of the write in progress.
let keyValuePtr: usize = 0;
let keyValueLen: usize = 0;
let fieldPtr: usize = 0;
let fieldLen: usize = 0;
let flattenBoolean = false;

/**
 * VRL's `encode_key_value` of `object` into `out`: the leaves flattened to dotted keys (array items `a.0`)
 * in a sorted map (a later duplicate wins), the keys of `ordering` (an array of valid UTF-8 strings, or 0)
 * first, then the others; `key=value` pairs joined by the field delimiter. With `flattenBooleans`, `true` is
 * the bare key and `false` is left out.
 */
export function writeKeyValue(
  out: Buffer,
  object: Value,
  ordering: Value,
  kvPtr: usize,
  kvLen: usize,
  fieldDelimiterPtr: usize,
  fieldDelimiterLen: usize,
  flattenBooleans: bool,
): void {
  keyValuePtr = kvPtr;
  keyValueLen = kvLen;
  fieldPtr = fieldDelimiterPtr;
  fieldLen = fieldDelimiterLen;
  flattenBoolean = flattenBooleans;
  const flat = newObject(objectLen(object));
  flattenInto(flat, object, bufferNew(32));
  const start = bufferLength(out);
  if (ordering != 0) {
    for (let i: usize = 0, n = arrayLen(ordering); i < n; i++) {
      const field = arrayGet(ordering, i);
      const at = objectFind(flat, bytesPtr(field), bytesLen(field));
      if (at >= 0) writePair(out, bytesPtr(field), bytesLen(field), objectRemoveAt(flat, <usize>at));
    }
  }
  for (let i: usize = 0, n = objectLen(flat); i < n; i++) {
    writePair(out, objectKeyPtr(flat, i), objectKeyLen(flat, i), objectValue(flat, i));
  }
  // Every pair is followed by the field delimiter; the last one is taken back.
  if (bufferLength(out) >= start + fieldLen && endsWith(out, fieldPtr, fieldLen)) {
    bufferTruncate(out, bufferLength(out) - fieldLen);
  }
}

function endsWith(b: Buffer, ptr: usize, len: usize): bool {
  return memory.compare(bufferData(b) + bufferLength(b) - len, ptr, len) == 0;
}

/** Adds the leaves below `v` (nested `depth` levels deep; past MAX_VALUE_DEPTH, none) to `flat` under `key` + `.` + their own key. */
function flattenInto(flat: Value, v: Value, key: Buffer, depth: i32 = 0): void {
  if (!mayDescend(depth)) return;
  const prefix = bufferLength(key);
  const isObject = tagOf(v) == Tag.Object;
  for (let i: usize = 0, n = isObject ? objectLen(v) : arrayLen(v); i < n; i++) {
    bufferTruncate(key, prefix);
    if (prefix > 0) bufferByte(key, 0x2e);
    if (isObject) bufferBytes(key, objectKeyPtr(v, i), objectKeyLen(v, i));
    else writeInt(key, <i64>i);
    const item = isObject ? objectValue(v, i) : arrayGet(v, i);
    const tag = tagOf(item);
    if (tag == Tag.Object || tag == Tag.Array) {
      flattenInto(flat, item, key, depth + 1);
      continue;
    }
    const len = bufferLength(key);
    const copy = alloc(len);
    copyMemory(copy, bufferData(key), len);
    objectSet(flat, copy, len, item);
  }
  bufferTruncate(key, prefix);
}

function writePair(out: Buffer, key: usize, keyLen: usize, value: Value): void {
  if (tagOf(value) == Tag.Bool && flattenBoolean) {
    if (value != TRUE) return;
    writeQuotable(out, key, keyLen);
    bufferBytes(out, fieldPtr, fieldLen);
    return;
  }
  writeQuotable(out, key, keyLen);
  bufferBytes(out, keyValuePtr, keyValueLen);
  const text = bufferNew(32);
  writeText(text, value, false);
  writeQuotable(out, bufferData(text), bufferLength(text));
  bufferBytes(out, fieldPtr, fieldLen);
}

/**
 * A key or value, quoted when it holds whitespace, `"` or `=` (whatever the delimiters are, as VRL does),
 * with `\`, `"` and newlines escaped (a newline as `\\n`, as VRL writes it).
 */
function writeQuotable(out: Buffer, ptr: usize, len: usize): void {
  const end = ptr + len;
  let quoted = false;
  for (let at = logfmtQuoteEnd(ptr, end); !quoted && at < end; at = logfmtQuoteEnd(at + 1, end)) {
    const c = load<u8>(at);
    quoted = c == 0x22 || c == 0x3d || whitespaceLength(at, end) != 0;
  }
  if (quoted) bufferByte(out, 0x22);
  // Runs without `\`, `"` or a newline are copied whole.
  for (let at = ptr; at < end; at++) {
    const stop = displayEscapeEnd(at, end);
    bufferBytes(out, at, stop - at);
    if (stop == end) break;
    const c = load<u8>(stop);
    if (c == 0x5c) bufferAscii(out, '\\\\');
    else if (c == 0x22) bufferAscii(out, '\\"');
    else bufferAscii(out, '\\\\n');
    at = stop;
  }
  if (quoted) bufferByte(out, 0x22);
}
