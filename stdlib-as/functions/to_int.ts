// `to_int(value)`: integers as they are; floats truncated (saturating); booleans 1 or 0; null 0; timestamps
// whole seconds since the epoch; strings parsed as Rust's `i64::from_str` does.

import { Value, Tag, tagOf, newInt, floatOf, timestampSeconds, bytesPtr, bytesLen, TRUE } from '../value';
import { parseIntBytes, numberParsed } from '../codec/number';
import { failCoerce, failUnparsable } from './support/coerce';

export function fn_to_int(value: Value): Value {
  switch (tagOf(value)) {
    case Tag.Int:
      return value;
    case Tag.Float:
      return newInt(saturatingInt(floatOf(value)));
    case Tag.Bool:
      return newInt(value == TRUE ? 1 : 0);
    case Tag.Null:
      return newInt(0);
    case Tag.Timestamp:
      return newInt(timestampSeconds(value));
    case Tag.Bytes: {
      const ptr = bytesPtr(value);
      const len = bytesLen(value);
      const n = parseIntBytes(ptr, len);
      return numberParsed() ? newInt(n) : failUnparsable('Invalid integer', ptr, len, intParseError(ptr, len));
    }
  }
  return failCoerce(value, 'integer');
}

/** Rust's `f as i64`: truncation, saturating at the i64 range. */
function saturatingInt(f: f64): i64 {
  if (f >= 9223372036854775807.0) return i64.MAX_VALUE;
  if (f <= -9223372036854775808.0) return i64.MIN_VALUE;
  return <i64>f;
}

/** Why `i64::from_str` rejected the text: Rust's `ParseIntError` message for the first problem it meets. */
function intParseError(ptr: usize, len: usize): string {
  if (len == 0) return 'cannot parse integer from empty string';
  const sign = load<u8>(ptr);
  const negative = sign == 0x2d;
  const start: usize = negative || sign == 0x2b ? 1 : 0;
  if (start == len) return 'invalid digit found in string';
  // Overflow is met at the first digit that takes the value out of range, before any later non-digit.
  const limit: u64 = negative ? 9223372036854775808 : 9223372036854775807;
  let n: u64 = 0;
  for (let i = start; i < len; i++) {
    const d = <u64>load<u8>(ptr + i) - 0x30;
    if (d > 9) break;
    if (n > (limit - d) / 10) {
      return negative ? 'number too small to fit in target type' : 'number too large to fit in target type';
    }
    n = n * 10 + d;
  }
  return 'invalid digit found in string';
}
