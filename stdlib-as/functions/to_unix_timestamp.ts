// `to_unix_timestamp(value, unit)`: whole units since the epoch, rounded down (chrono's `timestamp_millis`...).

import { Value, newInt, timestampOf } from '../value';
import { floorDiv } from '../codec/time';
import { nanosPerUnit } from '../time-unit';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_to_unix_timestamp(value: Value, unit: Value): Value {
  if (!expectKinds(value, KindBit.Timestamp)) return 0;
  return newInt(floorDiv(timestampOf(value), nanosPerUnit(unit)));
}
