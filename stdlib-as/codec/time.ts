// Calendar math (proleptic Gregorian, Howard Hinnant's days-from-civil algorithms) and timestamps as
// RFC 3339 text the way VRL prints them.

import { Buffer, bufferByte, bufferBytes, bufferData, bufferLength } from '../buffer';
import { writeIntPadded } from './number';

export const NANOS_PER_SECOND: i64 = 1_000_000_000;
export const NANOS_PER_DAY: i64 = 86_400 * NANOS_PER_SECOND;

/** Days since 1970-01-01 of the date `year`-`month`-`day` (month 1–12, day 1–31). */
export function daysFromCivil(year: i64, month: i32, day: i32): i64 {
  const y = month <= 2 ? year - 1 : year;
  const era = (y >= 0 ? y : y - 399) / 400;
  const yearOfEra = y - era * 400;
  const dayOfYear = <i64>((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1);
  const dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** Result of `civilFromDays`, read through civilYear/civilMonth/civilDay. */
let year: i64 = 1970;
let month: i32 = 1;
let day: i32 = 1;

// @ts-ignore: decorator
@inline export function civilYear(): i64 {
  return year;
}
// @ts-ignore: decorator
@inline export function civilMonth(): i32 {
  return month;
}
// @ts-ignore: decorator
@inline export function civilDay(): i32 {
  return day;
}

/** The date `days` after 1970-01-01, into civilYear()/civilMonth()/civilDay(). */
export function civilFromDays(days: i64): void {
  const z = days + 719468;
  const era = (z >= 0 ? z : z - 146096) / 146097;
  const dayOfEra = z - era * 146097;
  const yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
  const dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
  const shiftedMonth = <i32>((5 * dayOfYear + 2) / 153); // March = 0
  day = <i32>(dayOfYear - (153 * <i64>shiftedMonth + 2) / 5 + 1);
  month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
}

/** Whether `seconds` and `nanos` past them count as i64 nanoseconds since the epoch (years 1677–2262). */
export function fitsI64Nanos(seconds: i64, nanos: u32): bool {
  if (seconds >= 0) return seconds < 9_223_372_036 || (seconds == 9_223_372_036 && nanos <= 854_775_807);
  return seconds > -9_223_372_037 || (seconds == -9_223_372_037 && nanos >= 145_224_192);
}

/** Floor division (towards negative infinity), for splitting times before the epoch. */
// @ts-ignore: decorator
@inline export function floorDiv(a: i64, b: i64): i64 {
  const q = a / b;
  return q * b > a ? q - 1 : q;
}

/**
 * `2020-10-10T16:00:00.123Z`: chrono's `to_rfc3339_opts(SecondsFormat::AutoSi, true)`, with 0, 3, 6 or 9
 * fractional digits as the nanoseconds need; a year outside 0–9999 gets a sign (`+10000`, `-0001`).
 */
export function writeRfc3339(b: Buffer, seconds: i64, nanos: u32): void {
  // The events of a batch mostly share their timestamp (a source stamps each read with one): write the last
  // text again rather than format it again.
  if (seconds == lastRfc3339Seconds && nanos == lastRfc3339Nanos && lastRfc3339Length != 0)
    return bufferBytes(b, LAST_RFC3339, lastRfc3339Length);
  const start = bufferLength(b);
  formatRfc3339(b, seconds, nanos);
  lastRfc3339Length = bufferLength(b) - start;
  memory.copy(LAST_RFC3339, bufferData(b) + start, lastRfc3339Length);
  lastRfc3339Seconds = seconds;
  lastRfc3339Nanos = nanos;
}

/** The text `writeRfc3339` wrote last (at most 33 bytes) and its timestamp. */
const LAST_RFC3339 = memory.data(40);
let lastRfc3339Length: usize = 0;
let lastRfc3339Seconds: i64 = 0;
let lastRfc3339Nanos: u32 = 0;

function formatRfc3339(b: Buffer, seconds: i64, nanos: u32): void {
  const days = floorDiv(seconds, 86_400);
  const secondsOfDay = seconds - days * 86_400;
  civilFromDays(days);
  writeYear(b, year);
  bufferByte(b, 0x2d);
  writeIntPadded(b, month, 2);
  bufferByte(b, 0x2d);
  writeIntPadded(b, day, 2);
  bufferByte(b, 0x54);
  writeIntPadded(b, secondsOfDay / 3600, 2);
  bufferByte(b, 0x3a);
  writeIntPadded(b, (secondsOfDay / 60) % 60, 2);
  bufferByte(b, 0x3a);
  writeIntPadded(b, secondsOfDay % 60, 2);
  writeFraction(b, nanos);
  bufferByte(b, 0x5a);
}

/** A year as chrono writes it in RFC 3339 and `%Y`: four digits at least, a sign outside 0–9999. */
export function writeYear(b: Buffer, year: i64): void {
  if (year < 0) bufferByte(b, 0x2d);
  else if (year > 9999) bufferByte(b, 0x2b);
  writeIntPadded(b, year < 0 ? -year : year, 4);
}

/** `.123`, `.123456` or `.123456789` (AutoSi): the shortest of the three that is exact; nothing for 0. */
export function writeFraction(b: Buffer, nanos: u32): void {
  if (nanos == 0) return;
  bufferByte(b, 0x2e);
  if (nanos % 1_000_000 == 0) writeIntPadded(b, nanos / 1_000_000, 3);
  else if (nanos % 1_000 == 0) writeIntPadded(b, nanos / 1_000, 6);
  else writeIntPadded(b, nanos, 9);
}
