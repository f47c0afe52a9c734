// `from_unix_timestamp(value, unit)`: the timestamp `value` units after the epoch. Timestamps are i64
// nanoseconds, so values beyond the years 1677–2262 fail with VRL's message.

import { Value, Tag, tagOf, intOf, newTimestamp } from '../value';
import { fail } from '../error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from '../buffer';
import { writeInt } from '../codec/number';
import { nanosPerUnit } from '../time-unit';
import { kindBitOf, kindName } from '../kind-names';

export function fn_from_unix_timestamp(value: Value, unit: Value): Value {
  if (tagOf(value) != Tag.Int) return cannotCoerce(value);
  const n = intOf(value);
  const scale = nanosPerUnit(unit);
  const limit = i64.MAX_VALUE / scale;
  if (scale == 1 || (n <= limit && n >= -limit)) return newTimestamp(n * scale);
  return cannotCoerce(value);
}

/** `unable to coerce 99999999999 into timestamp`, or the kind when `value` is no integer. */
function cannotCoerce(value: Value): Value {
  const b = bufferNew(48);
  bufferAscii(b, 'unable to coerce ');
  if (tagOf(value) == Tag.Int) writeInt(b, intOf(value));
  else bufferAscii(b, kindName(kindBitOf(value)));
  bufferAscii(b, ' into timestamp');
  return fail(bufferData(b), bufferLength(b));
}
