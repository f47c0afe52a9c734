// `from_unix_timestamp(value, unit)`: the timestamp `value` units after the epoch. Values beyond chrono's
// range (VRL's) fail with VRL's message; nanoseconds, which an i64 holds only for 1677–2262, always fit.

import { Value, Tag, tagOf, intOf, newTimestamp } from '../value';
import { fail } from '../error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from '../buffer';
import { writeInt } from '../codec/number';
import { floorDiv } from '../codec/time';
import { nanosPerUnit } from '../time-unit';
import { kindBitOf, kindName } from '../kind-names';
import { MIN_TIMESTAMP_SECONDS, MAX_TIMESTAMP_SECONDS } from '../../abi/wire/values';

export function fn_from_unix_timestamp(value: Value, unit: Value): Value {
  if (tagOf(value) != Tag.Int) return cannotCoerce(value);
  const n = intOf(value);
  const nanosPer = nanosPerUnit(unit);
  const perSecond = 1_000_000_000 / nanosPer;
  const seconds = floorDiv(n, perSecond);
  if (seconds < MIN_TIMESTAMP_SECONDS || seconds > MAX_TIMESTAMP_SECONDS) return cannotCoerce(value);
  return newTimestamp(seconds, <u32>((n - seconds * perSecond) * nanosPer));
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
