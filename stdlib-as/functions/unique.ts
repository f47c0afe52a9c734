// `unique(value)`: the array's items without repeats, each at its first position (strict equality: `1` and
// `1.0` differ). A hash set over the kept items keeps large arrays linear.

import {
  Value,
  Tag,
  TRUE,
  tagOf,
  intOf,
  timestampSeconds,
  timestampNanos,
  floatOf,
  bytesPtr,
  bytesLen,
  regexPatternPtr,
  regexPatternLen,
  newArray,
  arrayLen,
  arrayGet,
  arrayPush,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  alloc,
  share,
} from '../value';
import { value_eq } from '../ops';
import { mayDescend } from '../depth';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_unique(value: Value): Value {
  if (!expectKinds(value, KindBit.Array)) return 0;
  const n = arrayLen(value);
  const unique = newArray(n);
  let slots: usize = 16;
  while (slots < n * 2) slots <<= 1;
  const table = alloc(slots << 2);
  memory.fill(table, 0, slots << 2);
  for (let i: usize = 0; i < n; i++) {
    const item = arrayGet(value, i);
    let slot = <usize>hashValue(item, 0xcbf29ce484222325) & (slots - 1);
    let seen = false;
    for (;;) {
      const kept = <Value>load<u32>(table + (slot << 2));
      if (kept == 0) break;
      if (value_eq(kept, item)) {
        seen = true;
        break;
      }
      slot = (slot + 1) & (slots - 1);
    }
    if (seen) continue;
    store<u32>(table + (slot << 2), <u32>item);
    arrayPush(unique, share(item));
  }
  return unique;
}

// @ts-ignore: decorator
@inline function mix(h: u64, x: u64): u64 {
  return (h ^ x) * 0x100000001b3;
}

function hashBytes(h: u64, ptr: usize, len: usize): u64 {
  h = mix(h, <u64>len);
  for (let i: usize = 0; i < len; i++) h = mix(h, <u64>load<u8>(ptr + i));
  return h;
}

/**
 * FNV-1a over the kind and content; values equal under `value_eq` hash alike (`-0.0` as `0.0`). Containers
 * past MAX_VALUE_DEPTH hash by kind only.
 */
function hashValue(v: Value, h: u64, depth: i32 = 0): u64 {
  const tag = tagOf(v);
  h = mix(h, <u64>tag);
  if (tag >= Tag.Array && !mayDescend(depth)) return h;
  switch (tag) {
    case Tag.Bool:
      return mix(h, v == TRUE ? 1 : 0);
    case Tag.Int:
      return mix(h, <u64>intOf(v));
    case Tag.Timestamp:
      return mix(mix(h, <u64>timestampSeconds(v)), <u64>timestampNanos(v));
    case Tag.Float: {
      const f = floatOf(v);
      return mix(h, f == 0 ? 0 : reinterpret<u64>(f));
    }
    case Tag.Bytes:
      return hashBytes(h, bytesPtr(v), bytesLen(v));
    case Tag.Regex:
      return hashBytes(h, regexPatternPtr(v), regexPatternLen(v));
    case Tag.Array: {
      for (let i: usize = 0, n = arrayLen(v); i < n; i++) h = hashValue(arrayGet(v, i), h, depth + 1);
      return h;
    }
    case Tag.Object: {
      for (let i: usize = 0, n = objectLen(v); i < n; i++) {
        h = hashBytes(h, objectKeyPtr(v, i), objectKeyLen(v, i));
        h = hashValue(objectValue(v, i), h, depth + 1);
      }
      return h;
    }
  }
  return h;
}
