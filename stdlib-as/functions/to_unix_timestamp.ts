// `to_unix_timestamp(value, unit)`: whole units since the epoch, rounded down (chrono's `timestamp_millis`...);
// nanoseconds fail beyond an i64 (the years 1677–2262), as chrono's `timestamp_nanos_opt` does in VRL.

import { Value, newInt, timestampSeconds, timestampNanos } from '../value';
import { nanosPerUnit, hasI64Nanos, i64NanosOf, failNanosOutOfRange } from '../time-unit';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_to_unix_timestamp(value: Value, unit: Value): Value {
  if (!expectKinds(value, KindBit.Timestamp)) return 0;
  const nanosPer = nanosPerUnit(unit);
  if (nanosPer == 1) return hasI64Nanos(value) ? newInt(i64NanosOf(value)) : failNanosOutOfRange();
  const perSecond = 1_000_000_000 / nanosPer;
  return newInt(timestampSeconds(value) * perSecond + <i64>timestampNanos(value) / nanosPer);
}
