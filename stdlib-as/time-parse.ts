// Reading timestamps in the AS stdlib: RFC 3339 as chrono's `parse_from_rfc3339` reads it, and the BSD
// syslog form `Mmm dd [yyyy] hh:mm:ss` in the compile option's time zone, within chrono's range (VRL's).

import { daysFromCivil, civilFromDays, civilYear, civilMonth, floorDiv, NANOS_PER_DAY } from './codec/time';
import { jsNow, jsTimeZoneOffset } from './clock';
import { Value, newTimestamp } from './value';
import { MIN_TIMESTAMP_SECONDS, MAX_TIMESTAMP_SECONDS, MAX_TIMESTAMP_YEAR } from '../abi/wire/values';

let parsedSeconds: i64 = 0;
let parsedNanos: u32 = 0;
let scanEnd: usize = 0;

/** The instant of the last successful parse. */
export function parsedTimestamp(): Value {
  return newTimestamp(parsedSeconds, parsedNanos);
}

// @ts-ignore: decorator
@inline function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

/** Exactly `count` digits at `at` (before `end`) as a number, or -1. */
function fixedDigits(at: usize, end: usize, count: usize): i32 {
  if (at + count > end) return -1;
  let n: i32 = 0;
  for (let i: usize = 0; i < count; i++) {
    const c = <u32>load<u8>(at + i);
    if (!isDigit(c)) return -1;
    n = n * 10 + <i32>(c - 0x30);
  }
  return n;
}

/** One or more digits at `at` as a number (saturating at 10^9), ending at scanEnd; -1 when there is none. */
function someDigits(at: usize, end: usize): i64 {
  let n: i64 = 0;
  let p = at;
  while (p < end && isDigit(load<u8>(p))) {
    if (n < 1_000_000_000) n = n * 10 + <i64>(load<u8>(p) - 0x30);
    p++;
  }
  scanEnd = p;
  return p > at ? n : -1;
}

function daysInMonth(year: i64, month: i32): i32 {
  if (month == 2) return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28;
  return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
}

/** Whether the fields make a date and time (second 60 is a leap second, as chrono allows for RFC 3339). */
function validDateTime(year: i64, month: i32, day: i64, hour: i64, minute: i64, second: i64, maxSecond: i64): bool {
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= <i64>daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= maxSecond
  );
}

/** Sets the parsed instant (years from 0, as parsed); false when it is beyond chrono's range. */
function setInstant(year: i64, month: i32, day: i32, secondOfDay: i64, offset: i64, nanos: i64): bool {
  if (year > MAX_TIMESTAMP_YEAR) return false;
  const seconds = daysFromCivil(year, month, day) * 86_400 + secondOfDay - offset;
  if (seconds < MIN_TIMESTAMP_SECONDS || seconds > MAX_TIMESTAMP_SECONDS) return false;
  parsedSeconds = seconds;
  parsedNanos = <u32>nanos;
  return true;
}

/**
 * Parses exactly the bytes [at, end) as RFC 3339 (`2020-03-13T20:45:38.119+02:00`, `t` and `z` in any
 * case, any number of fractional digits of which nine count). True on success, the instant in parsedTimestamp().
 */
export function parseRfc3339(at: usize, end: usize): bool {
  const year = fixedDigits(at, end, 4);
  if (year < 0 || at + 19 > end || load<u8>(at + 4) != 0x2d || load<u8>(at + 7) != 0x2d) return false;
  const month = fixedDigits(at + 5, end, 2);
  const day = fixedDigits(at + 8, end, 2);
  const separator = load<u8>(at + 10) | 0x20;
  if (month < 0 || day < 0 || (separator != 0x74 && separator != 0x20)) return false;
  const hour = fixedDigits(at + 11, end, 2);
  const minute = fixedDigits(at + 14, end, 2);
  const second = fixedDigits(at + 17, end, 2);
  if (hour < 0 || minute < 0 || second < 0 || load<u8>(at + 13) != 0x3a || load<u8>(at + 16) != 0x3a) return false;
  let p = at + 19;
  let nanos: i64 = 0;
  if (p < end && load<u8>(p) == 0x2e) {
    const start = ++p;
    while (p < end && isDigit(load<u8>(p))) {
      if (p - start < 9) nanos = nanos * 10 + <i64>(load<u8>(p) - 0x30);
      p++;
    }
    if (p == start) return false;
    for (let digits = p - start; digits < 9; digits++) nanos *= 10;
  }
  if (p >= end) return false;
  let offset: i64 = 0;
  const zone = load<u8>(p);
  if ((zone | 0x20) == 0x7a) {
    p++;
  } else {
    if (zone != 0x2b && zone != 0x2d) return false;
    const offsetHours = fixedDigits(p + 1, end, 2);
    const offsetMinutes = fixedDigits(p + 4, end, 2);
    if (offsetHours < 0 || offsetHours > 23 || offsetMinutes < 0 || offsetMinutes > 59 || load<u8>(p + 3) != 0x3a)
      return false;
    offset = <i64>(offsetHours * 3600 + offsetMinutes * 60);
    if (zone == 0x2d) offset = -offset;
    p += 6;
  }
  if (p != end || !validDateTime(year, month, day, hour, minute, second, 60)) return false;
  return setInstant(year, month, day, <i64>(hour * 3600 + minute * 60 + second), offset, nanos);
}

const MONTHS = memory.data<u8>([
  0x6a, 0x61, 0x6e, 0x66, 0x65, 0x62, 0x6d, 0x61, 0x72, 0x61, 0x70, 0x72, 0x6d, 0x61, 0x79, 0x6a, 0x75, 0x6e, 0x6a,
  0x75, 0x6c, 0x61, 0x75, 0x67, 0x73, 0x65, 0x70, 0x6f, 0x63, 0x74, 0x6e, 0x6f, 0x76, 0x64, 0x65, 0x63,
]); // janfebmaraprmayjunjulaugsepoctnovdec

/** Month 1–12 of the three-letter English abbreviation at `at` in any case, or 0. */
export function monthAbbreviation(at: usize, end: usize): i32 {
  if (at + 3 > end) return 0;
  const a = load<u8>(at) | 0x20;
  const b = load<u8>(at + 1) | 0x20;
  const c = load<u8>(at + 2) | 0x20;
  for (let m: usize = 0; m < 12; m++) {
    if (load<u8>(MONTHS + m * 3) == a && load<u8>(MONTHS + m * 3 + 1) == b && load<u8>(MONTHS + m * 3 + 2) == c) {
      return <i32>m + 1;
    }
  }
  return 0;
}

/** Spaces and tabs (nom's `space1`) from `at`; returns the position after them, or 0 when there are none. */
function spaces1(at: usize, end: usize): usize {
  let p = at;
  while (p < end && (load<u8>(p) == 0x20 || load<u8>(p) == 0x09)) p++;
  return p > at ? p : 0;
}

/**
 * Parses a BSD syslog timestamp at `at`: `Mmm dd [yyyy] hh:mm:ss` (fields separated by spaces or tabs,
 * numbers of any width). Without a year it is the current one (UTC), or the previous one for December
 * while it is January. Returns the position after it, the instant in parsedTimestamp(); 0 when it does not parse.
 */
export function parseBsdTimestamp(at: usize, end: usize): usize {
  const month = monthAbbreviation(at, end);
  if (month == 0) return 0;
  let p = spaces1(at + 3, end);
  if (p == 0) return 0;
  const day = someDigits(p, end);
  if (day < 0) return 0;
  p = spaces1(scanEnd, end);
  if (p == 0) return 0;
  let year: i64 = -1;
  let hour = someDigits(p, end);
  if (hour < 0) return 0;
  p = scanEnd;
  if (p >= end || load<u8>(p) != 0x3a) {
    year = hour;
    p = spaces1(p, end);
    if (p == 0) return 0;
    hour = someDigits(p, end);
    if (hour < 0) return 0;
    p = scanEnd;
  }
  if (p >= end || load<u8>(p) != 0x3a) return 0;
  const minute = someDigits(p + 1, end);
  if (minute < 0 || scanEnd >= end || load<u8>(scanEnd) != 0x3a) return 0;
  const second = someDigits(scanEnd + 1, end);
  if (second < 0) return 0;
  p = scanEnd;
  if (year < 0) year = currentYearFor(month);
  // Years beyond chrono's go first: the host's zone rules only know the years a JS Date holds.
  if (year > MAX_TIMESTAMP_YEAR || !validDateTime(year, month, day, hour, minute, second, 59)) return 0;
  const secondOfDay = hour * 3600 + minute * 60 + second;
  const offset = <i64>jsTimeZoneOffset(daysFromCivil(year, month, <i32>day) * 86_400 + secondOfDay);
  return setInstant(year, month, <i32>day, secondOfDay, offset, 0) ? p : 0;
}

/** syslog_loose's year for a date without one: this year, except December read in January. */
function currentYearFor(month: i32): i64 {
  civilFromDays(floorDiv(jsNow(), NANOS_PER_DAY));
  return civilMonth() == 1 && month == 12 ? civilYear() - 1 : civilYear();
}
