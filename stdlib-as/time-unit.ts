// The `unit` argument of to_unix_timestamp and from_unix_timestamp.

import { Value, bytesPtr, bytesLen } from './value';

/**
 * Nanoseconds per `unit` (`seconds` when absent). The compiler only lets the enum's literals through, so
 * the length and one letter tell them apart.
 */
export function nanosPerUnit(unit: Value): i64 {
  if (unit == 0) return 1_000_000_000;
  switch (<i32>bytesLen(unit)) {
    case 7:
      return 1_000_000_000; // seconds
    case 11:
      return 1; // nanoseconds
  }
  return load<u8>(bytesPtr(unit), 2) == 0x6c ? 1_000_000 : 1_000; // milliseconds, microseconds
}
