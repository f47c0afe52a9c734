// Kinds as VRL names them in messages: a value's kind bit, kind names, a set of kinds (`string or integer`) and
// a value's exact type (`[integer, string]`).

import { Value, Tag, tagOf, arrayLen, arrayGet, objectLen, objectKeyPtr, objectKeyLen, objectValue } from './value';
import { Buffer, bufferAscii, bufferByte, bufferBytes } from './buffer';
import { mayDescend } from './depth';
import { KindBit } from '../abi/wire/kinds';

/** Indexed by `Tag`. */
const BIT_OF_TAG: StaticArray<u32> = [
  KindBit.Null,
  KindBit.Boolean,
  KindBit.Integer,
  KindBit.Float,
  KindBit.Bytes,
  KindBit.Timestamp,
  KindBit.Regex,
  KindBit.Array,
  KindBit.Object,
];

export function kindBitOf(v: Value): u32 {
  return unchecked(BIT_OF_TAG[<i32>tagOf(v)]);
}

/** `string, array or object`: kind names in VRL's order. */
export function writeKinds(b: Buffer, mask: u32): void {
  let count = 0;
  for (let bit: u32 = 1; bit <= <u32>KindBit.Object; bit <<= 1) if (mask & bit) count++;
  let written = 0;
  for (let bit: u32 = 1; bit <= <u32>KindBit.Object; bit <<= 1) {
    if (!(mask & bit)) continue;
    if (written > 0) bufferAscii(b, written == count - 1 ? ' or ' : ', ');
    bufferAscii(b, kindName(bit));
    written++;
  }
}

export function kindName(bit: u32): string {
  switch (bit) {
    case KindBit.Bytes:
      return 'string';
    case KindBit.Integer:
      return 'integer';
    case KindBit.Float:
      return 'float';
    case KindBit.Boolean:
      return 'boolean';
    case KindBit.Timestamp:
      return 'timestamp';
    case KindBit.Regex:
      return 'regex';
    case KindBit.Null:
      return 'null';
    case KindBit.Array:
      return 'array';
    case KindBit.Object:
      return 'object';
  }
  return 'never';
}

/**
 * The kind of a value as VRL prints it in operator errors: `integer`, `[integer, string]`,
 * `{ a: float, "b c": [null] }`; empty collections are `array` and `object`.
 */
export function writeValueKind(b: Buffer, v: Value, depth: i32 = 0): void {
  const tag = tagOf(v);
  // Past MAX_VALUE_DEPTH a container is only named (`array`, `object`).
  if (tag == Tag.Array && arrayLen(v) > 0 && mayDescend(depth)) {
    bufferByte(b, 0x5b); // [
    for (let i: usize = 0, n = arrayLen(v); i < n; i++) {
      if (i > 0) bufferAscii(b, ', ');
      writeValueKind(b, arrayGet(v, i), depth + 1);
    }
    bufferByte(b, 0x5d); // ]
    return;
  }
  if (tag == Tag.Object && objectLen(v) > 0 && mayDescend(depth)) {
    bufferAscii(b, '{ ');
    for (let i: usize = 0, n = objectLen(v); i < n; i++) {
      if (i > 0) bufferAscii(b, ', ');
      writeField(b, objectKeyPtr(v, i), objectKeyLen(v, i));
      bufferAscii(b, ': ');
      writeValueKind(b, objectValue(v, i), depth + 1);
    }
    bufferAscii(b, ' }');
    return;
  }
  bufferAscii(b, kindName(kindBitOf(v)));
}

/** A field name, quoted (without escapes) unless it matches VRL's `^[0-9]*[a-zA-Z_@][0-9a-zA-Z_@]*$`. */
function writeField(b: Buffer, key: usize, len: usize): void {
  let plain = false;
  let i: usize = 0;
  while (i < len && isDigit(load<u8>(key + i))) i++;
  if (i < len && isWordStart(load<u8>(key + i))) {
    plain = true;
    for (i++; i < len; i++) {
      const c = load<u8>(key + i);
      if (!isDigit(c) && !isWordStart(c)) {
        plain = false;
        break;
      }
    }
  }
  if (!plain) bufferByte(b, 0x22);
  bufferBytes(b, key, len);
  if (!plain) bufferByte(b, 0x22);
}

// @ts-ignore: decorator
@inline function isDigit(c: u8): bool {
  return c >= 0x30 && c <= 0x39;
}

// @ts-ignore: decorator
@inline function isWordStart(c: u8): bool {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c == 0x5f || c == 0x40;
}
