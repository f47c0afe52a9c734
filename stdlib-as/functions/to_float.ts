// `to_float(value)`: floats as they are; integers widened; booleans 1.0 or 0.0; null 0.0; timestamps
// seconds since the epoch with the fraction; strings parsed as Rust's `f64::from_str` does (NaN refused).

import { Value, Tag, tagOf, newFloat, intOf, bytesPtr, bytesLen, TRUE } from '../value';
import { hasI64Nanos, i64NanosOf, failNanosOutOfRange } from '../time-unit';
import { parseFloatBytes, numberParsed } from '../codec/number';
import { failCoerce, failUnparsable } from './support/coerce';

export function fn_to_float(value: Value): Value {
  switch (tagOf(value)) {
    case Tag.Float:
      return value;
    case Tag.Int:
      return newFloat(<f64>intOf(value));
    case Tag.Bool:
      return newFloat(value == TRUE ? 1.0 : 0.0);
    case Tag.Null:
      return newFloat(0.0);
    case Tag.Timestamp:
      // VRL goes through i64 nanoseconds (and fails beyond them).
      return hasI64Nanos(value) ? newFloat(<f64>i64NanosOf(value) / 1e9) : failNanosOutOfRange();
    case Tag.Bytes: {
      const ptr = bytesPtr(value);
      const len = bytesLen(value);
      const f = parseFloatBytes(ptr, len);
      if (!numberParsed()) {
        const reason = len == 0 ? 'cannot parse float from empty string' : 'invalid float literal';
        return failUnparsable('Invalid floating point number', ptr, len, reason);
      }
      return isNaN(f) ? failUnparsable('NaN number not supported', ptr, len, '') : newFloat(f);
    }
  }
  return failCoerce(value, 'float');
}
