// format_timestamp in UTC with a constant format: the compiler turns the format into an item program
// (compiler/codegen/strftime.ts, which documents its layout) and this runs it per call, producing the text
// runtime/strftime.ts produces. Offsets and zone names are fixed in UTC, so the compiler writes them as text.

import { Value, newBytes, bytesPtr, bytesLen, timestampOf } from './value';
import { Buffer, bufferNew, bufferByte, bufferBytes, bufferAscii, bufferData, bufferLength, bufferReserve } from './buffer';
import { writeInt, writeIntPadded } from './codec/number';
import { civilFromDays, civilYear, civilMonth, civilDay, daysFromCivil, floorDiv, NANOS_PER_DAY, NANOS_PER_SECOND } from './codec/time';
import { KindBit, expectKinds } from './functions/args';

const enum Op { Literal, Numeric, Name, Fraction }

/** Numeric fields, in the order of the compiler's `NUMERIC_FIELDS`. */
const enum Field {
  Year, YearDiv100, YearMod100, IsoYear, IsoYearMod100, Month, Day, WeekFromSun, WeekFromMon, IsoWeek,
  NumDaysFromSun, WeekdayFromMon, Ordinal, Hour, Hour12, Minute, Second, Nanosecond, Timestamp,
}

const enum Pad { None, Zero, Space }

const enum Name { ShortMonth, LongMonth, ShortWeekday, LongWeekday, LowerAmPm, UpperAmPm }

const MONTHS: StaticArray<string> = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December',
];
const WEEKDAYS: StaticArray<string> = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SHORT_MONTHS: StaticArray<string> = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
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
export function strftime_utc(value: Value, program: Value): Value {
  if (!expectKinds(value, KindBit.Timestamp)) return 0;
  const ns = timestampOf(value);
  seconds = floorDiv(ns, NANOS_PER_SECOND);
  nano = ns - seconds * NANOS_PER_SECOND;
  days = floorDiv(ns, NANOS_PER_DAY);
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
    if (op == Op.Literal) {
      const len = <usize>load<u8>(at, 1);
      bufferBytes(b, at + 2, len);
      at += 2 + len;
    } else if (op == Op.Numeric) {
      writeNumber(b, numeric(<i32>load<u8>(at, 1)), <i32>load<u8>(at, 2), <i32>load<u8>(at, 3));
      at += 4;
    } else if (op == Op.Name) {
      writeName(b, <i32>load<u8>(at, 1));
      at += 2;
    } else {
      writeFraction(b, <i32>load<u8>(at, 1), load<u8>(at, 2) != 0);
      at += 3;
    }
  }
  return newBytes(bufferData(b), bufferLength(b));
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
    case Field.Year: return year;
    case Field.YearDiv100: return year / 100; // i64 nanoseconds span the years 1677–2262: never negative
    case Field.YearMod100: return year % 100;
    case Field.IsoYear: return isoYear();
    case Field.IsoYearMod100: return isoYear() % 100;
    case Field.Month: return month;
    case Field.Day: return day;
    case Field.WeekFromSun: return (ordinal() - weekdayFromSunday(days) + 6) / 7;
    case Field.WeekFromMon: return (ordinal() - weekdayFromMonday(days) + 6) / 7;
    case Field.IsoWeek: {
      const thursday = isoThursday();
      return (thursday - daysFromCivil(isoYear(), 1, 1)) / 7 + 1;
    }
    case Field.NumDaysFromSun: return weekdayFromSunday(days);
    case Field.WeekdayFromMon: return weekdayFromMonday(days) + 1;
    case Field.Ordinal: return ordinal();
    case Field.Hour: return secondOfDay / 3600;
    case Field.Hour12: return (secondOfDay / 3600 + 11) % 12 + 1;
    case Field.Minute: return secondOfDay / 60 % 60;
    case Field.Second: return secondOfDay % 60;
    case Field.Nanosecond: return nano;
    default: return seconds;
  }
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
    case Name.ShortMonth: return bufferAscii(b, SHORT_MONTHS[month - 1]);
    case Name.LongMonth: return bufferAscii(b, MONTHS[month - 1]);
    case Name.ShortWeekday: return bufferAscii(b, SHORT_WEEKDAYS[weekdayFromSunday(days)]);
    case Name.LongWeekday: return bufferAscii(b, WEEKDAYS[weekdayFromSunday(days)]);
    case Name.LowerAmPm: return bufferAscii(b, hour < 12 ? 'am' : 'pm');
    default: return bufferAscii(b, hour < 12 ? 'AM' : 'PM');
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
