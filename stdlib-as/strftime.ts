// format_timestamp in UTC and parse_timestamp of text with an offset or in the instance's time zone: the
// compiler (for a literal format) or the runtime (for one known at run time, `strftime_program`) turns the
// format into an item program (abi/strftime-program.ts, which documents the layouts) and these run it per
// call, with abi/strftime.ts's results. Offsets and zone names are fixed in UTC, so the program writes
// them as text. The parser covers the common case; whatever it does not accept (an error, a leap second, a
// sign before the year, a local time near a zone transition...) goes to the JS function, which has the
// exact answer or message.

import {
  Value,
  Tag,
  tagOf,
  newBytes,
  newTimestamp,
  bytesPtr,
  bytesLen,
  timestampSeconds,
  timestampNanos,
} from './value';
import {
  Buffer,
  bufferNew,
  bufferByte,
  bufferBytes,
  bufferAscii,
  bufferData,
  bufferLength,
  bufferReserve,
} from './buffer';
import { writeInt, writeIntPadded } from './codec/number';
import { civilFromDays, civilYear, civilMonth, civilDay, daysFromCivil, floorDiv } from './codec/time';
import { MIN_TIMESTAMP_SECONDS, MAX_TIMESTAMP_SECONDS, MAX_TIMESTAMP_YEAR } from '../abi/wire/values';
import { expectKinds } from './functions/support/args';
import { bytesAt } from './functions/support/text';
import { jsNamedZoneOffset, jsTimeZoneOffset } from './clock';
import { monthAbbreviation } from './time-parse';
import {
  FormatOp,
  NameItem,
  NumericField,
  Pad,
  ParseOp,
  ParseResolution,
  ParseSlot,
  NO_ZONE_OFFSET,
} from '../abi/wire/strftime-program';
import { KindBit } from '../abi/wire/kinds';

const MONTHS: StaticArray<string> = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS: StaticArray<string> = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SHORT_MONTHS: StaticArray<string> = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];
const SHORT_WEEKDAYS: StaticArray<string> = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

// The instant being formatted, split once per call.
let seconds: i64 = 0;
let nano: i64 = 0;
let days: i64 = 0;
let secondOfDay: i64 = 0;
let year: i64 = 0;
let month: i32 = 0;
let day: i32 = 0;

/** `format_timestamp(value, format)` in UTC, `program` being the format's item program. */
export function strftime_format_utc(value: Value, program: Value): Value {
  if (!expectKinds(value, KindBit.Timestamp)) return 0;
  seconds = timestampSeconds(value);
  nano = <i64>timestampNanos(value);
  days = floorDiv(seconds, 86_400);
  secondOfDay = seconds - days * 86_400;
  civilFromDays(days);
  year = civilYear();
  month = civilMonth();
  day = civilDay();

  const b = bufferNew(32);
  let at = bytesPtr(program);
  const end = at + bytesLen(program);
  while (at < end) {
    const op = <i32>load<u8>(at);
    if (op == FormatOp.Literal) {
      const len = <usize>load<u8>(at, 1);
      // Mostly one separator byte: no copy call.
      if (len == 1) bufferByte(b, load<u8>(at, 2));
      else bufferBytes(b, at + 2, len);
      at += 2 + len;
    } else if (op == FormatOp.Numeric) {
      const field = <i32>load<u8>(at, 1);
      const value = numeric(field);
      if (field == NumericField.Year || field == NumericField.IsoYear) writeYear(b, value, <i32>load<u8>(at, 2));
      else if (value >= 100 && field == NumericField.YearDiv100) writeCenturyDigits(b, value);
      else writeNumber(b, value, <i32>load<u8>(at, 2), <i32>load<u8>(at, 3));
      at += 4;
    } else if (op == FormatOp.Name) {
      writeName(b, <i32>load<u8>(at, 1));
      at += 2;
    } else {
      writeFraction(b, <i32>load<u8>(at, 1), load<u8>(at, 2) != 0);
      at += 3;
    }
  }
  return newBytes(bufferData(b), bufferLength(b));
}

// ---- programs of formats known at run time --------------------------------------------------------

// @ts-ignore: decorator
@external("svc_js", "strftime_program")
declare function jsStrftimeProgram(kind: i32, ptr: usize, len: usize): usize;

const CACHED_PROGRAMS: usize = 4;
const CACHED_FORMAT_MAX: usize = 64;
const CACHED_PROGRAM_MAX: usize = 192;
/** u32 kind, u32 format length, u32 program length (NO_PROGRAM: none), u32 unused, the format, the program. */
const CACHE_ENTRY: usize = 16 + CACHED_FORMAT_MAX + CACHED_PROGRAM_MAX;
/** The last formats asked about and their programs, in static memory: they outlive the batch's arena. */
const PROGRAM_CACHE = memory.data(<i32>(CACHED_PROGRAMS * CACHE_ENTRY), 8);
const NO_PROGRAM: u32 = u32.MAX_VALUE;
let cachedPrograms: usize = 0;
let nextCacheEntry: usize = 0;

/**
 * The program of `kind` (abi/strftime-program.ts's `ProgramKind`) for a format known only at run time, or 0
 * when there is none (the caller then runs the JS function). The host builds it once per distinct format
 * (`svc_js.strftime_program`); the last few formats' programs are kept here.
 */
export function strftime_program(kind: i32, format: Value): Value {
  if (tagOf(format) != Tag.Bytes) return 0;
  const ptr = bytesPtr(format);
  const len = bytesLen(format);
  for (let i: usize = 0; i < cachedPrograms; i++) {
    const entry = PROGRAM_CACHE + i * CACHE_ENTRY;
    if (load<i32>(entry) == kind && <usize>load<u32>(entry, 4) == len && memory.compare(entry + 16, ptr, len) == 0) {
      return cachedProgram(entry);
    }
  }
  const reply = jsStrftimeProgram(kind, ptr, len);
  const programLen: u32 = reply == 0 ? NO_PROGRAM : load<u32>(reply);
  if (len > CACHED_FORMAT_MAX || (reply != 0 && <usize>programLen > CACHED_PROGRAM_MAX)) {
    return reply == 0 ? 0 : newBytes(reply + 4, programLen);
  }
  const entry = PROGRAM_CACHE + nextCacheEntry * CACHE_ENTRY;
  nextCacheEntry = (nextCacheEntry + 1) % CACHED_PROGRAMS;
  if (cachedPrograms < CACHED_PROGRAMS) cachedPrograms++;
  store<i32>(entry, kind);
  store<u32>(entry, <u32>len, 4);
  store<u32>(entry, programLen, 8);
  memory.copy(entry + 16, ptr, len);
  if (reply != 0) memory.copy(entry + 16 + CACHED_FORMAT_MAX, reply + 4, programLen);
  return cachedProgram(entry);
}

function cachedProgram(entry: usize): Value {
  const len = load<u32>(entry, 8);
  return len == NO_PROGRAM ? 0 : newBytes(entry + 16 + CACHED_FORMAT_MAX, len);
}

/** 0 = Sunday. */
function weekdayFromSunday(d: i64): i32 {
  return <i32>(d - floorDiv(d + 4, 7) * 7 + 4);
}
/** 0 = Monday. */
function weekdayFromMonday(d: i64): i32 {
  return <i32>(d - floorDiv(d + 3, 7) * 7 + 3);
}

function ordinal(): i64 {
  return days - daysFromCivil(year, 1, 1) + 1;
}

/** The Thursday of the ISO week, which decides the ISO year. */
function isoThursday(): i64 {
  return days - weekdayFromMonday(days) + 3;
}

function isoYear(): i64 {
  civilFromDays(isoThursday());
  return civilYear();
}

function numeric(field: i32): i64 {
  switch (field) {
    case NumericField.Year:
      return year;
    case NumericField.YearDiv100:
      return yearDiv100();
    case NumericField.YearMod100:
      return year - floorDiv(year, 100) * 100;
    case NumericField.IsoYear:
      return isoYear();
    case NumericField.IsoYearMod100: {
      const y = isoYear();
      return y - floorDiv(y, 100) * 100;
    }
    case NumericField.Month:
      return month;
    case NumericField.Day:
      return day;
    case NumericField.WeekFromSun:
      return (ordinal() - weekdayFromSunday(days) + 6) / 7;
    case NumericField.WeekFromMon:
      return (ordinal() - weekdayFromMonday(days) + 6) / 7;
    case NumericField.IsoWeek: {
      const thursday = isoThursday();
      return (thursday - daysFromCivil(isoYear(), 1, 1)) / 7 + 1;
    }
    case NumericField.NumDaysFromSun:
      return weekdayFromSunday(days);
    case NumericField.WeekdayFromMon:
      return weekdayFromMonday(days) + 1;
    case NumericField.Ordinal:
      return ordinal();
    case NumericField.Hour:
      return secondOfDay / 3600;
    case NumericField.Hour12:
      return ((secondOfDay / 3600 + 11) % 12) + 1;
    case NumericField.Minute:
      return (secondOfDay / 60) % 60;
    case NumericField.Second:
      return secondOfDay % 60;
    case NumericField.Nanosecond:
      return nano;
    default:
      return seconds;
  }
}

/**
 * chrono's `%C`: `year.div_euclid(100) as u8`, its tens digit written as `b'0' + tens` (a character past
 * `9` for years of 10000 and more, a truncated value for negative ones), as chrono does.
 */
function yearDiv100(): i64 {
  return <i64>(<u8>floorDiv(year, 100));
}

/** chrono's `%C` of 100 or more: its tens as one character past `9`, then its ones. */
function writeCenturyDigits(b: Buffer, value: i64): void {
  bufferByte(b, <u8>(48 + value / 10));
  bufferByte(b, <u8>(48 + (value % 10)));
}

/** chrono's `%Y`/`%G`: four digits at least, with a sign outside 0–9999 (`+10000`, `-0001`). */
function writeYear(b: Buffer, value: i64, pad: i32): void {
  const signed = value < 0 || value > 9999;
  const magnitude = value < 0 ? -value : value;
  if (pad == Pad.Space) {
    // Right-aligned in four places, five with the sign.
    let width = signed ? 2 : 1;
    for (let rest = magnitude / 10; rest != 0; rest /= 10) width++;
    const fill = (signed ? 5 : 4) - width;
    if (fill > 0) memory.fill(bufferReserve(b, <usize>fill), 0x20, <usize>fill);
  }
  if (signed) bufferByte(b, value < 0 ? 0x2d : 0x2b);
  if (pad == Pad.Zero) writeIntPadded(b, magnitude, 4);
  else writeInt(b, magnitude);
}

/** `value` padded to `width` (0: unpadded, the Unix timestamp, which alone may be negative). */
function writeNumber(b: Buffer, value: i64, pad: i32, width: i32): void {
  if (width == 0 || pad == Pad.None) return writeInt(b, value);
  if (pad == Pad.Zero) return writeIntPadded(b, value, <usize>width);
  let digits = 1;
  for (let rest = value / 10; rest != 0; rest /= 10) digits++;
  if (digits < width) memory.fill(bufferReserve(b, <usize>(width - digits)), 0x20, <usize>(width - digits));
  writeInt(b, value);
}

function writeName(b: Buffer, name: i32): void {
  const hour = secondOfDay / 3600;
  switch (name) {
    case NameItem.ShortMonth:
      return bufferAscii(b, SHORT_MONTHS[month - 1]);
    case NameItem.LongMonth:
      return bufferAscii(b, MONTHS[month - 1]);
    case NameItem.ShortWeekday:
      return bufferAscii(b, SHORT_WEEKDAYS[weekdayFromSunday(days)]);
    case NameItem.LongWeekday:
      return bufferAscii(b, WEEKDAYS[weekdayFromSunday(days)]);
    case NameItem.LowerAmPm:
      return bufferAscii(b, hour < 12 ? 'am' : 'pm');
    default:
      return bufferAscii(b, hour < 12 ? 'AM' : 'PM');
  }
}

/** `digits` digits of the fraction (0: chrono's `%.f`, the shortest exact of 3, 6 and 9, nothing for 0). */
function writeFraction(b: Buffer, digits: i32, dot: bool): void {
  if (digits == 0) {
    if (nano == 0) return;
    digits = nano % 1_000_000 == 0 ? 3 : nano % 1_000 == 0 ? 6 : 9;
  }
  if (dot) bufferByte(b, 0x2e);
  let scale: i64 = 1;
  for (let i = digits; i < 9; i++) scale *= 10;
  writeIntPadded(b, nano / scale, <usize>digits);
}

// ---- parsing ----------------------------------------------------------------------------------------

const SLOTS = memory.data(8 * 8);
/** Bit `1 << slot` for each field set. */
let given: u32 = 0;

/** Sets a field; false when it was set to another value before (chrono's `Impossible`). */
function setSlot(slot: i32, value: i64): bool {
  const at = SLOTS + ((<usize>slot) << 3);
  const bit: u32 = 1 << slot;
  if (given & bit) return load<i64>(at) == value;
  store<i64>(at, value);
  given |= bit;
  return true;
}

// @ts-ignore: decorator
@inline function slot(s: i32): i64 {
  return load<i64>(SLOTS + ((<usize>s) << 3));
}

function isDigit(at: usize, end: usize): bool {
  return at < end && <u32>load<u8>(at) - 0x30 < 10;
}

/** Past ASCII whitespace (other whitespace stops here and fails the next item: the JS function reads it). */
function skipSpace(at: usize, end: usize): usize {
  while (at < end) {
    const c = <u32>load<u8>(at);
    if (c != 0x20 && (c < 0x09 || c > 0x0d)) break;
    at++;
  }
  return at;
}

/** Digits read by `scanDigits`, and how many. */
let scanned: i64 = 0;
let scannedCount: i32 = 0;

/** Reads `min` to `max` ASCII digits at `at` into `scanned`; the address after them, or 0 for too few. */
function scanDigits(at: usize, end: usize, min: i32, max: i32): usize {
  let value: i64 = 0;
  let count = 0;
  while (count < max && isDigit(at, end)) {
    value = value * 10 + <i64>(load<u8>(at) - 0x30);
    at++;
    count++;
  }
  scanned = value;
  scannedCount = count;
  return count < min ? 0 : at;
}

const LOWER_MONTHS = 'januaryfebruarymarchaprilmayjunejulyaugustseptemberoctobernovemberdecember';

/** The month name at `at` (three letters in any ASCII case, the rest with `long` when it follows) into `scanned`. */
function scanMonth(at: usize, end: usize, long: bool): usize {
  const month = monthAbbreviation(at, end);
  if (month == 0) return 0;
  scanned = month;
  at += 3;
  if (!long) return at;
  let start = 0;
  for (let m = 0; m < month - 1; m++) start += MONTHS[m].length;
  const rest = MONTHS[month - 1].length - 3;
  return matchesLower(at, end, start + 3, rest) ? at + <usize>rest : at;
}

/** Whether the `len` bytes at `at`, ASCII letters lowered, are LOWER_MONTHS's from `from`. */
function matchesLower(at: usize, end: usize, from: i32, len: i32): bool {
  if (end - at < <usize>len) return false;
  for (let i = 0; i < len; i++) {
    let c = <u32>load<u8>(at + <usize>i);
    if (c - 0x41 < 26) c |= 0x20;
    if (c != <u32>load<u16>(changetype<usize>(LOWER_MONTHS) + ((<usize>(from + i)) << 1))) return false;
  }
  return true;
}

/**
 * `+hh:mm`, `+hhmm`, `+hh mm` as seconds east into `scanned` (chrono's `scan::timezone_offset`); with `zulu`
 * also `Z` and `UTC` in any case.
 */
function scanOffset(at: usize, end: usize, zulu: bool): usize {
  at = skipSpace(at, end);
  if (at >= end) return 0;
  const sign = load<u8>(at);
  if (zulu && (sign | 0x20) == 0x7a) {
    scanned = 0;
    return at + 1;
  }
  if (zulu && (sign | 0x20) == 0x75) {
    if (end - at < 3 || (load<u8>(at, 1) | 0x20) != 0x74 || (load<u8>(at, 2) | 0x20) != 0x63) return 0;
    scanned = 0;
    return at + 3;
  }
  if (sign != 0x2b && sign != 0x2d) return 0;
  at++;
  if (!isDigit(at, end) || !isDigit(at + 1, end)) return 0;
  const hours = <i64>(load<u8>(at) - 0x30) * 10 + <i64>(load<u8>(at + 1) - 0x30);
  at += 2;
  while (at < end && (load<u8>(at) == 0x3a || skipSpace(at, at + 1) != at)) at++;
  if (!isDigit(at, end) || !isDigit(at + 1, end) || load<u8>(at) > 0x35) return 0;
  const minutes = <i64>(load<u8>(at) - 0x30) * 10 + <i64>(load<u8>(at + 1) - 0x30);
  const seconds = hours * 3600 + minutes * 60;
  scanned = sign == 0x2d ? -seconds : seconds;
  return at + 2;
}

/**
 * `parse_timestamp(value, format, timezone)`, `program` being the format's parse program and `zone` the
 * literal `timezone` (0: the instance's zone) for a time without an offset; a timestamp passes through. 0
 * (no message) when the text does not give an instant this reads: the caller then asks the JS function.
 */
export function strftime_parse(value: Value, program: Value, zone: Value): Value {
  if (tagOf(value) == Tag.Timestamp) return value;
  if (tagOf(value) != Tag.Bytes) return 0;
  const text = bytesPtr(value);
  const entries = bytesPtr(program) + 1;
  if (!readFields(text, text + bytesLen(value), entries, entries + bytesLen(program) - 1)) return 0;
  return load<u8>(bytesPtr(program)) == ParseResolution.WithOffset ? resolveWithOffset() : resolveInZone(zone);
}

/** Reads the text [at, end) with the parse entries [op, opEnd) into the slots; false unless they read it all. */
function readFields(at: usize, end: usize, op: usize, opEnd: usize): bool {
  given = 0;
  while (op < opEnd) {
    const kind = <i32>load<u8>(op);
    if (kind == ParseOp.Literal) {
      const len = <usize>load<u8>(op, 1);
      if (!bytesAt(at, end - at, 0, op + 2, len)) return false;
      at += len;
      op += 2 + len;
      continue;
    }
    if (kind == ParseOp.Space) {
      at = skipSpace(at, end);
      op += 1;
      continue;
    }
    if (kind == ParseOp.DateTimeSeparator) {
      if (at == end) return false;
      if ((load<u8>(at) | 0x20) == 0x74) at++;
      op += 1;
      continue;
    }
    let field: i32;
    if (kind == ParseOp.Numeric) {
      field = <i32>load<u8>(op, 1);
      at = scanDigits(skipSpace(at, end), end, 1, <i32>load<u8>(op, 2));
      op += 3;
    } else if (kind == ParseOp.MonthName) {
      field = ParseSlot.Month;
      at = scanMonth(at, end, load<u8>(op, 1) != 0);
      op += 2;
    } else if (kind == ParseOp.Fraction) {
      const digits = <i32>load<u8>(op, 1);
      op += 2;
      field = ParseSlot.Nanosecond;
      if (digits == 0) {
        if (at >= end || load<u8>(at) != 0x2e) continue; // no fraction
        at = scanDigits(at + 1, end, 1, 9);
        if (at != 0) while (isDigit(at, end)) at++; // digits beyond nanoseconds are ignored
      } else {
        at = scanDigits(at, end, digits, digits);
      }
      for (let i = scannedCount; i < 9; i++) scanned *= 10;
    } else {
      field = ParseSlot.Offset;
      at = scanOffset(at, end, load<u8>(op, 1) != 0);
      op += 2;
    }
    if (at == 0 || !setSlot(field, scanned)) return false;
  }
  return at == end;
}

/** The instant of the fields read and the offset read with them (chrono's `to_datetime`), or 0. */
function resolveWithOffset(): Value {
  if ((given & (1 << ParseSlot.Offset)) == 0) return 0;
  const offset = slot(ParseSlot.Offset);
  // Offsets of a day or more: the JS function's rules.
  if (offset <= -86_400 || offset >= 86_400) return 0;
  const local = localSeconds();
  return local == NO_TIME ? 0 : instant(local - offset);
}

/** The instant of the fields read as local time in `zone` (0: the instance's, `svc_js.tz_offset`), or 0. */
function resolveInZone(zone: Value): Value {
  const local = localSeconds();
  if (local == NO_TIME) return 0;
  const offset = zoneOffset(zone, local);
  if (offset == NO_ZONE_OFFSET) return 0;
  // Within a day of a transition a local time may be skipped or repeated (chrono's errors): the JS function decides.
  if (zoneOffset(zone, local - 86_400) != offset || zoneOffset(zone, local + 86_400) != offset) return 0;
  return instant(local - <i64>offset);
}

function zoneOffset(zone: Value, local: i64): i32 {
  return zone == 0 ? jsTimeZoneOffset(local) : jsNamedZoneOffset(bytesPtr(zone), bytesLen(zone), local);
}

const NO_TIME = i64.MIN_VALUE;

/** The date and time read, as seconds since 1970-01-01T00:00 of their own clock; NO_TIME when incomplete or invalid. */
function localSeconds(): i64 {
  const needed: u32 =
    (1 << ParseSlot.Year) |
    (1 << ParseSlot.Month) |
    (1 << ParseSlot.Day) |
    (1 << ParseSlot.Hour) |
    (1 << ParseSlot.Minute);
  if ((given & needed) != needed) return NO_TIME;
  if ((given & (1 << ParseSlot.Nanosecond)) != 0 && (given & (1 << ParseSlot.Second)) == 0) return NO_TIME;
  const year = slot(ParseSlot.Year);
  const month = <i32>slot(ParseSlot.Month);
  const day = <i32>slot(ParseSlot.Day);
  const hour = slot(ParseSlot.Hour);
  const minute = slot(ParseSlot.Minute);
  const second = (given & (1 << ParseSlot.Second)) != 0 ? slot(ParseSlot.Second) : 0;
  if (year > MAX_TIMESTAMP_YEAR) return NO_TIME;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NO_TIME;
  // A leap second (60): the JS function's rules.
  if (hour > 23 || minute > 59 || second > 59) return NO_TIME;
  return daysFromCivil(year, month, 1) * 86_400 + (day - 1) * 86_400 + hour * 3600 + minute * 60 + second;
}

/** The timestamp `seconds` since the epoch plus the nanoseconds read, or 0 beyond chrono's range. */
function instant(seconds: i64): Value {
  if (seconds < MIN_TIMESTAMP_SECONDS || seconds > MAX_TIMESTAMP_SECONDS) return 0;
  return newTimestamp(seconds, (given & (1 << ParseSlot.Nanosecond)) != 0 ? <u32>slot(ParseSlot.Nanosecond) : 0);
}

function daysInMonth(year: i64, month: i32): i32 {
  if (month != 2) return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28;
}
