// `parse_bytes(value, unit, base = "2")`: a size such as `1.5 GiB` in `unit`s. `kB`, `MB`, … are powers of
// 1024 in base 2 and of 1000 in base 10; `KiB`, `MiB`, … are always powers of 1024.

import { Value, bytesPtr, bytesLen, newFloat } from '../value';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { scanQuantity, quantity, unitStart, unitEnd, unitIndex, failQuoted } from './support/measure';
import { KindBit } from '../../abi/wire/kinds';

const UNITS: StaticArray<string> = [
  'B',
  'kB',
  'KB',
  'MB',
  'GB',
  'TB',
  'PB',
  'EB',
  'kiB',
  'KiB',
  'MiB',
  'GiB',
  'TiB',
  'PiB',
  'EiB',
];
/** Power of the base (2: 1024, 10: 1000) of each unit; the binary ones (index 8 on) always use 1024. */
const POWERS: StaticArray<i32> = [0, 1, 1, 2, 3, 4, 5, 6, 1, 1, 2, 3, 4, 5, 6];
const FIRST_BINARY = 8;

function unitFactor(index: i32, decimal: bool): f64 {
  return Math.pow(decimal && index < FIRST_BINARY ? 1000 : 1024, <f64>unchecked(POWERS[index]));
}

export function fn_parse_bytes(value: Value, unit: Value, base: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(unit, KindBit.Bytes)) return 0;
  if (base != 0 && !expectKinds(base, KindBit.Bytes)) return 0;
  const decimal = base != 0 && bytesLen(base) == 2 && load<u16>(bytesPtr(base)) == 0x3031; // "10"
  const target = unitIndex(bytesPtr(unit), bytesLen(unit), UNITS);
  if (target < 0) return failQuoted("unknown unit format: '", bytesPtr(unit), bytesLen(unit));
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const end = ptr + bytesLen(text);
  if (scanQuantity(ptr, end, 3, false) != end) return failQuoted("unable to parse bytes: '", ptr, bytesLen(text));
  const index = unitIndex(unitStart, unitEnd - unitStart, UNITS);
  if (index < 0) return failQuoted("unknown unit format: '", unitStart, unitEnd - unitStart);
  return newFloat((quantity * unitFactor(index, decimal)) / unitFactor(target, decimal));
}
