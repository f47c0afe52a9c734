import { Value, intOf } from '../value';
import { fail } from '../error';
import {
  Buffer,
  bufferNew,
  bufferAscii,
  bufferByte,
  bufferReserve,
  bufferData,
  bufferLength,
  bufferToBytes,
} from '../buffer';
import { writeInt } from '../codec/number';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

const DIGITS = memory.data<u8>([
  48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112,
  113, 114, 115, 116, 117, 118, 119, 120, 121, 122,
]);

/** `format_int(value, base = 10)`: the digits in base 2 to 36, lower case, with a `-` for negatives. */
export function fn_format_int(value: Value, base: Value): Value {
  if (!expectKinds(value, KindBit.Integer)) return 0;
  if (base != 0 && !expectKinds(base, KindBit.Integer)) return 0;
  const radix: i64 = base == 0 ? 10 : intOf(base);
  if (radix < 2 || radix > 36) {
    const b = bufferNew(64);
    bufferAscii(b, 'invalid base ');
    writeInt(b, radix);
    bufferAscii(b, ': must be be between 2 and 36 (inclusive)');
    return fail(bufferData(b), bufferLength(b));
  }
  const n = intOf(value);
  // The magnitude as u64 also covers i64::MIN.
  let magnitude: u64 = n < 0 ? <u64>-n : <u64>n;
  const b: Buffer = bufferNew(66);
  if (n < 0) bufferByte(b, 0x2d);
  let count: usize = 0;
  for (let rest = magnitude; ; rest /= <u64>radix) {
    count++;
    if (rest < <u64>radix) break;
  }
  const out = bufferReserve(b, count);
  for (let i = count; i > 0; i--) {
    store<u8>(out + i - 1, load<u8>(DIGITS + <usize>(magnitude % <u64>radix)));
    magnitude /= <u64>radix;
  }
  return bufferToBytes(b);
}
