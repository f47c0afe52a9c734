// `parse_duration(value, unit)`: the sum of every `<number><unit>` in the text (`1h30m`, `1s 1ms`), in
// `unit`s. Each part is converted through exact nanosecond counts, so `1005ms` is exactly 1.005 seconds.

import { Value, bytesPtr, bytesLen, newFloat } from '../value';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { scanQuantity, quantity, unitStart, unitEnd, unitIndex, failQuoted } from './support/measure';
import { KindBit } from '../../abi/wire/kinds';

const UNITS: StaticArray<string> = ['ns', 'us', 'ms', 'cs', 'ds', 's', 'm', 'h', 'd'];
const NANOSECONDS: StaticArray<f64> = [1, 1e3, 1e6, 1e7, 1e8, 1e9, 60e9, 3600e9, 86400e9];

/** The unit's index; `µs` (micro sign) is `us`. */
function durationUnit(ptr: usize, len: usize): i32 {
  if (len == 3 && load<u16>(ptr) == 0xb5c2 && load<u8>(ptr, 2) == 0x73) return 1;
  return unitIndex(ptr, len, UNITS);
}

export function fn_parse_duration(value: Value, unit: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(unit, KindBit.Bytes)) return 0;
  const target = durationUnit(bytesPtr(unit), bytesLen(unit));
  if (target < 0) return failQuoted("unknown unit format: '", bytesPtr(unit), bytesLen(unit));
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const end = ptr + bytesLen(text);
  const targetNs = unchecked(NANOSECONDS[target]);
  let total: f64 = 0;
  let found = false;
  // Every match left to right, as the regex crate's `captures_iter`.
  for (let at = ptr; at < end; ) {
    const matchEnd = scanQuantity(at, end, 2, true);
    if (matchEnd == 0) {
      at++;
      continue;
    }
    const index = durationUnit(unitStart, unitEnd - unitStart);
    if (index < 0) return failQuoted("unknown duration unit: '", unitStart, unitEnd - unitStart);
    total += (quantity * unchecked(NANOSECONDS[index])) / targetNs;
    found = true;
    at = matchEnd;
  }
  if (!found) return failQuoted("unable to parse duration: '", ptr, bytesLen(text));
  return newFloat(total);
}
