// Run-time checks of argument kinds, for calls whose argument kinds the compiler could not verify.
// The message is VRL's: `expected string, got integer`.

import { Value, TRUE, tagOf } from '../value';
import { fail } from '../error';
import { bufferNew, bufferAscii, bufferData, bufferLength, Buffer } from '../buffer';
import { writeValueKind } from '../ops';
import { KindBit } from '../../abi/wire/kinds';

export { KindBit };

/** Indexed by `Tag`. */
const BIT_OF_TAG: StaticArray<u32> = [
  KindBit.Null, KindBit.Boolean, KindBit.Integer, KindBit.Float, KindBit.Bytes, KindBit.Timestamp,
  KindBit.Regex, KindBit.Array, KindBit.Object,
];

export function kindBitOf(v: Value): u32 {
  return unchecked(BIT_OF_TAG[<i32>tagOf(v)]);
}

/** True when `v` is one of `mask`'s kinds; otherwise records VRL's message (with `v`'s exact type) and returns false. */
export function expectKinds(v: Value, mask: u32): bool {
  if ((kindBitOf(v) & mask) != 0) return true;
  const b = bufferNew(48);
  bufferAscii(b, 'expected ');
  writeKinds(b, mask);
  bufferAscii(b, ', got ');
  writeValueKind(b, v);
  fail(bufferData(b), bufferLength(b));
  return false;
}

/** An optional boolean argument: `fallback` when absent (0), else 1 or 0; -1 (message pending) for a non-boolean. */
export function optionalBool(v: Value, fallback: bool): i32 {
  if (v == 0) return fallback ? 1 : 0;
  if (!expectKinds(v, KindBit.Boolean)) return -1;
  return v == TRUE ? 1 : 0;
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
    case KindBit.Bytes: return 'string';
    case KindBit.Integer: return 'integer';
    case KindBit.Float: return 'float';
    case KindBit.Boolean: return 'boolean';
    case KindBit.Timestamp: return 'timestamp';
    case KindBit.Regex: return 'regex';
    case KindBit.Null: return 'null';
    case KindBit.Array: return 'array';
    case KindBit.Object: return 'object';
  }
  return 'never';
}

