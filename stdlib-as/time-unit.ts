// The `unit` argument of to_unix_timestamp and from_unix_timestamp, and timestamps as i64 nanoseconds.

import { Value, bytesPtr, bytesLen, timestampSeconds, timestampNanos } from './value';
import { failWith } from './error';
import { fitsI64Nanos } from './codec/time';

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

/** Whether the timestamp `v` counts as i64 nanoseconds since the epoch (chrono's `timestamp_nanos_opt`). */
export function hasI64Nanos(v: Value): bool {
  return fitsI64Nanos(timestampSeconds(v), timestampNanos(v));
}

/** Nanoseconds since the epoch of a timestamp for which `hasI64Nanos` holds. */
export function i64NanosOf(v: Value): i64 {
  return timestampSeconds(v) * 1_000_000_000 + <i64>timestampNanos(v);
}

/** VRL's error where `timestamp_nanos_opt` finds no i64 (`ValueError::OutOfRange`). */
export function failNanosOutOfRange(): Value {
  return failWith("can't convert out of range timestamp");
}
