// `to_string(value)`: strings as they are; numbers and booleans as Rust prints them (`1.5`, `1`, `-0`);
// timestamps in RFC 3339; null as the empty string.

import { Value, Tag, tagOf, intOf, floatOf, timestampSeconds, timestampNanos, newBytes, TRUE } from '../value';
import { bufferNew, bufferToBytes } from '../buffer';
import { writeInt, writeRustFloat } from '../codec/number';
import { writeRfc3339 } from '../codec/time';
import { textBytes } from '../error';
import { failCoerce } from './support/coerce';

export function fn_to_string(value: Value): Value {
  switch (tagOf(value)) {
    case Tag.Bytes:
      return value;
    case Tag.Bool:
      return textBytes(value == TRUE ? 'true' : 'false');
    case Tag.Null:
      return newBytes(0, 0);
    case Tag.Int: {
      const b = bufferNew(20);
      writeInt(b, intOf(value));
      return bufferToBytes(b);
    }
    case Tag.Float: {
      const b = bufferNew(24);
      writeRustFloat(b, floatOf(value));
      return bufferToBytes(b);
    }
    case Tag.Timestamp: {
      const b = bufferNew(32);
      writeRfc3339(b, timestampSeconds(value), timestampNanos(value));
      return bufferToBytes(b);
    }
  }
  return failCoerce(value, 'string');
}
