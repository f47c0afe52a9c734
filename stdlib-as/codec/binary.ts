// The binary value codec of docs/abi.md §1: how values cross between components and to the host.

import {
  Value,
  Tag,
  NULL,
  TRUE,
  FALSE,
  alloc,
  newInt,
  newFloat,
  newTimestamp,
  newBytes,
  newRegex,
  newArray,
  arrayPush,
  arrayLen,
  arrayGet,
  newObject,
  copyMemory,
  objectSetInOrder,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  tagOf,
  intOf,
  floatOf,
  timestampSeconds,
  timestampNanos,
  bytesPtr,
  bytesLen,
  regexPatternPtr,
  regexPatternLen,
} from '../value';
import { compileRegex } from '../regex';
import { mayDescend } from '../depth';
import { Wire } from '../../abi/wire/values';

/** Read position of `decodeValue`, advanced past what it reads. */
let cursor: usize = 0;

export function decodeCursor(): usize {
  return cursor;
}

/**
 * Decodes the value at `ptr`. Byte strings and keys point into the input (no copy), so the input must
 * stay in place while the values are used (it lives in the arena of the same batch).
 */
export function decodeValue(ptr: usize): Value {
  cursor = ptr;
  return decodeNext();
}

function decodeNext(): Value {
  const tag = <i32>load<u8>(cursor);
  cursor += 1;
  switch (tag) {
    case Wire.Null:
      return NULL;
    case Wire.False:
      return FALSE;
    case Wire.True:
      return TRUE;
    case Wire.Int: {
      const v = newInt(load<i64>(cursor));
      cursor += 8;
      return v;
    }
    case Wire.Float: {
      const v = newFloat(load<f64>(cursor));
      cursor += 8;
      return v;
    }
    case Wire.Timestamp: {
      const v = newTimestamp(load<i64>(cursor), load<u32>(cursor, 8));
      cursor += 12;
      return v;
    }
    case Wire.Bytes: {
      const len = <usize>load<u32>(cursor);
      const v = newBytes(cursor + 4, len);
      cursor += 4 + len;
      return v;
    }
    case Wire.Regex: {
      const len = <usize>load<u32>(cursor);
      const v = compileRegex(cursor + 4, len);
      cursor += 4 + len;
      return v;
    }
    case Wire.RegexProgram: {
      const len = <usize>load<u32>(cursor);
      const pattern = cursor + 4;
      const programLen = <usize>load<u32>(pattern + len);
      const v = newRegex(pattern + len + 4, pattern, len);
      cursor = pattern + len + 4 + programLen;
      return v;
    }
    case Wire.Array: {
      const count = <usize>load<u32>(cursor);
      cursor += 8;
      const a = newArray(count);
      for (let i: usize = 0; i < count; i++) arrayPush(a, decodeNext());
      return a;
    }
    case Wire.Object: {
      const count = <usize>load<u32>(cursor);
      cursor += 8;
      const o = newObject(count);
      for (let i: usize = 0; i < count; i++) {
        const keyLen = <usize>load<u32>(cursor);
        const key = cursor + 4;
        cursor = key + keyLen;
        objectSetInOrder(o, key, keyLen, decodeNext());
      }
      return o;
    }
  }
  unreachable();
  return 0;
}

/** Encoded size of `v`, nested `depth` levels deep, in bytes (containers past MAX_VALUE_DEPTH encode as null). */
export function encodedSize(v: Value, depth: i32 = 0): usize {
  if (tagOf(v) >= Tag.Array && !mayDescend(depth)) return 1;
  switch (tagOf(v)) {
    case Tag.Null:
    case Tag.Bool:
      return 1;
    case Tag.Int:
    case Tag.Float:
      return 9;
    case Tag.Timestamp:
      return 13;
    case Tag.Bytes:
      return 5 + bytesLen(v);
    case Tag.Regex:
      return 5 + regexPatternLen(v);
    case Tag.Array: {
      let size: usize = 9;
      for (let i: usize = 0, n = arrayLen(v); i < n; i++) size += encodedSize(arrayGet(v, i), depth + 1);
      return size;
    }
    case Tag.Object: {
      let size: usize = 9;
      for (let i: usize = 0, n = objectLen(v); i < n; i++) {
        size += 4 + objectKeyLen(v, i) + encodedSize(objectValue(v, i), depth + 1);
      }
      return size;
    }
  }
  unreachable();
  return 0;
}

/** Writes `v` at `out` (which has `encodedSize(v, depth)` bytes); returns the address after it. */
export function encodeValue(v: Value, out: usize, depth: i32 = 0): usize {
  if (tagOf(v) >= Tag.Array && !mayDescend(depth)) {
    store<u8>(out, Wire.Null);
    return out + 1;
  }
  switch (tagOf(v)) {
    case Tag.Null:
      store<u8>(out, Wire.Null);
      return out + 1;
    case Tag.Bool:
      store<u8>(out, v == TRUE ? Wire.True : Wire.False);
      return out + 1;
    case Tag.Int:
      store<u8>(out, Wire.Int);
      store<i64>(out + 1, intOf(v));
      return out + 9;
    case Tag.Float:
      store<u8>(out, Wire.Float);
      store<f64>(out + 1, floatOf(v));
      return out + 9;
    case Tag.Timestamp:
      store<u8>(out, Wire.Timestamp);
      store<i64>(out + 1, timestampSeconds(v));
      store<u32>(out + 9, timestampNanos(v));
      return out + 13;
    case Tag.Bytes:
      return putBytes(out, Wire.Bytes, bytesPtr(v), bytesLen(v));
    case Tag.Regex:
      return putBytes(out, Wire.Regex, regexPatternPtr(v), regexPatternLen(v));
    case Tag.Array: {
      const n = arrayLen(v);
      store<u8>(out, Wire.Array);
      store<u32>(out + 1, <u32>n);
      const start = out + 9;
      let at = start;
      for (let i: usize = 0; i < n; i++) at = encodeValue(arrayGet(v, i), at, depth + 1);
      store<u32>(out + 5, <u32>(at - start));
      return at;
    }
    case Tag.Object: {
      const n = objectLen(v);
      store<u8>(out, Wire.Object);
      store<u32>(out + 1, <u32>n);
      const start = out + 9;
      let at = start;
      for (let i: usize = 0; i < n; i++) {
        const keyLen = objectKeyLen(v, i);
        store<u32>(at, <u32>keyLen);
        copyMemory(at + 4, objectKeyPtr(v, i), keyLen);
        at = encodeValue(objectValue(v, i), at + 4 + keyLen, depth + 1);
      }
      store<u32>(out + 5, <u32>(at - start));
      return at;
    }
  }
  unreachable();
  return 0;
}

function putBytes(out: usize, tag: Wire, ptr: usize, len: usize): usize {
  store<u8>(out, tag);
  store<u32>(out + 1, <u32>len);
  copyMemory(out + 5, ptr, len);
  return out + 5 + len;
}

/** Encodes `v` into a fresh arena buffer; returns its address (its length is `encodedSize(v)`). */
export function encodeToArena(v: Value): usize {
  const out = alloc(encodedSize(v));
  encodeValue(v, out);
  return out;
}
