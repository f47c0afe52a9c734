import { Value, intOf, newInt, bytesPtr, bytesLen } from '../value';
import { fail, failWith } from '../error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from '../buffer';
import { writeDisplay } from '../codec/display';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/**
 * `parse_int(value, base)`: Rust's `i64::from_str_radix`. Without `base`, a leading `0b`, `0o` or `0x`
 * selects the base, and any other leading `0` means octal.
 */
export function fn_parse_int(value: Value, base: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  if (base != 0 && !expectKinds(base, KindBit.Integer)) return 0;
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const len = bytesLen(text);
  let radix: i64 = 10;
  let skip: usize = 0;
  if (base != 0) {
    radix = intOf(base);
    if (radix < 2 || radix > 36) {
      const b = bufferNew(64);
      bufferAscii(b, 'invalid base ');
      writeDisplay(b, value);
      bufferAscii(b, ': must be be between 2 and 36 (inclusive)');
      return fail(bufferData(b), bufferLength(b));
    }
  } else {
    if (len == 0) return failWith('value is empty');
    if (load<u8>(ptr) == 0x30) {
      const marker = len > 1 ? load<u8>(ptr, 1) : 0;
      radix = marker == 0x62 ? 2 : marker == 0x78 ? 16 : 8;
      if (marker == 0x62 || marker == 0x6f || marker == 0x78) skip = 2;
    }
  }
  const n = parseRadix(ptr + skip, len - skip, <u32>radix);
  if (parseError != null) {
    const b = bufferNew(64);
    bufferAscii(b, 'could not parse integer: ');
    bufferAscii(b, parseError!);
    return fail(bufferData(b), bufferLength(b));
  }
  return newInt(n);
}

/** Why the last `parseRadix` failed (Rust's `ParseIntError` text), or null. */
let parseError: string | null = null;

function parseRadix(ptr: usize, len: usize, radix: u32): i64 {
  parseError = null;
  if (len == 0) {
    parseError = 'cannot parse integer from empty string';
    return 0;
  }
  const sign = load<u8>(ptr);
  const negative = sign == 0x2d;
  let i: usize = negative || sign == 0x2b ? 1 : 0;
  if (i == len) {
    parseError = 'invalid digit found in string';
    return 0;
  }
  // Accumulate negatively when negative: i64.MIN has no positive counterpart.
  let n: i64 = 0;
  for (; i < len; i++) {
    const c = <u32>load<u8>(ptr + i);
    const digit = c - 0x30 < 10 ? c - 0x30 : (c | 0x20) - 0x61 < 26 ? (c | 0x20) - 0x61 + 10 : 99;
    if (digit >= radix) {
      parseError = 'invalid digit found in string';
      return 0;
    }
    const d = <i64>digit;
    const r = <i64>radix;
    if (negative) {
      if (n < (i64.MIN_VALUE + d) / r) {
        parseError = 'number too small to fit in target type';
        return 0;
      }
      n = n * r - d;
    } else {
      if (n > (i64.MAX_VALUE - d) / r) {
        parseError = 'number too large to fit in target type';
        return 0;
      }
      n = n * r + d;
    }
  }
  return n;
}
