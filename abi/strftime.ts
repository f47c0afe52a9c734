// chrono's strftime (the format language of VRL's parse_timestamp and format_timestamp): the same
// specifiers, the same lenient parsing (whitespace and leading zeros optional, names in any case) and the
// same error kinds, whose texts VRL shows after `Invalid timestamp "…": `. In abi/ because the compiler reads
// timestamp literals with it too (chrono's `DateTime::from_str`, which is `%+`).
//
// Times are seconds since the Unix epoch plus nanoseconds; dates are days since 1970-01-01.

import {
  Pad,
  RFC3339_DATE,
  RFC3339_TIME,
  strftimeItems,
  WIDTH,
  type Fixed,
  type Item,
  type Numeric,
} from './strftime-items.js';
import { MAX_TIMESTAMP_SECONDS, MAX_TIMESTAMP_YEAR, MIN_TIMESTAMP_SECONDS, MIN_TIMESTAMP_YEAR } from './wire/values.js';
import { formatOffset, instantsOfLocal, type TimeZone } from './time-zone.js';

// ---- calendar ---------------------------------------------------------------------------------------

const DAY = 86_400;

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

interface Civil {
  year: number;
  month: number;
  day: number;
}

function civilFromDays(days: number): Civil {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  return {
    year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1,
  };
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const mod = (a: number, b: number) => ((a % b) + b) % b;
/** 0 = Sunday. */
const weekdayFromSunday = (days: number) => mod(days + 4, 7);
/** 0 = Monday. */
const weekdayFromMonday = (days: number) => mod(days + 3, 7);

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeap(year) ? 29 : 28) : [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

function fromYmd(year: number, month: number, day: number): number | undefined {
  if (
    year < MIN_TIMESTAMP_YEAR ||
    year > MAX_TIMESTAMP_YEAR ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month)
  )
    return undefined;
  return daysFromCivil(year, month, day);
}

function fromYearOrdinal(year: number, ordinal: number): number | undefined {
  if (year < MIN_TIMESTAMP_YEAR || year > MAX_TIMESTAMP_YEAR || ordinal < 1 || ordinal > (isLeap(year) ? 366 : 365))
    return undefined;
  return daysFromCivil(year, 1, 1) + ordinal - 1;
}

/** Everything strftime can print or check about a date. */
interface DateFields extends Civil {
  ordinal: number;
  /** 0 = Sunday. */
  weekday: number;
  isoYear: number;
  isoWeek: number;
  weekFromSun: number;
  weekFromMon: number;
}

/** The last day's fields: consecutive events mostly fall on the same day. */
let lastDay: { days: number; fields: DateFields } | undefined;

function dateFields(days: number): DateFields {
  if (lastDay?.days !== days) lastDay = { days, fields: computeDateFields(days) };
  return lastDay.fields;
}

function computeDateFields(days: number): DateFields {
  const civil = civilFromDays(days);
  const ordinal = days - daysFromCivil(civil.year, 1, 1) + 1;
  const weekday = weekdayFromSunday(days);
  const thursday = days - weekdayFromMonday(days) + 3;
  const isoYear = civilFromDays(thursday).year;
  const isoWeek = Math.floor((thursday - daysFromCivil(isoYear, 1, 1)) / 7) + 1;
  // Fields spelled out: V8 builds `{ ...civil, more }` about 40× slower.
  return {
    year: civil.year,
    month: civil.month,
    day: civil.day,
    ordinal,
    weekday,
    isoYear,
    isoWeek,
    weekFromSun: Math.floor((ordinal - weekday + 6) / 7),
    weekFromMon: Math.floor((ordinal - weekdayFromMonday(days) + 6) / 7),
  };
}

function isoWeeksIn(isoYear: number): number {
  const jan1 = weekdayFromMonday(daysFromCivil(isoYear, 1, 1));
  return jan1 === 3 || (jan1 === 2 && isLeap(isoYear)) ? 53 : 52;
}

// ---- formatting -------------------------------------------------------------------------------------

const MONTHS = [
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
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

class InvalidFormat extends Error {
  constructor() {
    super('invalid format');
  }
}

/**
 * A formatter for `format`, which prints an instant (nanoseconds since the epoch) in a zone. Throws
 * `InvalidFormat` when the format has an unknown specifier: VRL checks the whole format before anything else.
 */
export function strftimeFormatter(format: string): (nanos: bigint, zone: TimeZone) => string {
  const items = strftimeItems(format);
  // `%#z` only parses.
  if (items.some((item) => item.kind === 'error' || (item.kind === 'fixed' && item.fixed === 'offsetPermissive'))) {
    throw new InvalidFormat();
  }
  return (nanos, zone) => formatItems(items, nanos, zone);
}

function formatItems(items: readonly Item[], nanos: bigint, zone: TimeZone): string {
  const utc = Number(floorDiv(nanos, 1_000_000_000n));
  const nano = Number(nanos - BigInt(utc) * 1_000_000_000n);
  const offset = zone.offsetAt(utc);
  const local = utc + offset;
  const days = Math.floor(local / DAY);
  const date = dateFields(days);
  const secondOfDay = local - days * DAY;
  const hour = Math.floor(secondOfDay / 3600);
  const time = { hour, minute: Math.floor(secondOfDay / 60) % 60, second: secondOfDay % 60, nano };

  const numeric = (field: Numeric): number => {
    switch (field) {
      case 'year':
        return date.year;
      case 'yearDiv100':
        return yearDiv100(date.year);
      case 'yearMod100':
        return mod(date.year, 100);
      case 'isoYear':
        return date.isoYear;
      case 'isoYearMod100':
        return mod(date.isoYear, 100);
      case 'month':
        return date.month;
      case 'day':
        return date.day;
      case 'weekFromSun':
        return date.weekFromSun;
      case 'weekFromMon':
        return date.weekFromMon;
      case 'isoWeek':
        return date.isoWeek;
      case 'numDaysFromSun':
        return date.weekday;
      case 'weekdayFromMon':
        return date.weekday === 0 ? 7 : date.weekday;
      case 'ordinal':
        return date.ordinal;
      case 'hour':
        return time.hour;
      case 'hour12':
        return ((time.hour + 11) % 12) + 1;
      case 'minute':
        return time.minute;
      case 'second':
        return time.second;
      case 'nanosecond':
        return time.nano;
      case 'timestamp':
        return utc;
    }
  };
  const fraction = (digits: number, dot: boolean) =>
    (dot ? '.' : '') + String(Math.floor(nano / 10 ** (9 - digits))).padStart(digits, '0');

  const fixed = (item: Fixed): string => {
    switch (item) {
      case 'shortMonthName':
        return MONTHS[date.month - 1]!.slice(0, 3);
      case 'longMonthName':
        return MONTHS[date.month - 1]!;
      case 'shortWeekdayName':
        return WEEKDAYS[date.weekday]!.slice(0, 3);
      case 'longWeekdayName':
        return WEEKDAYS[date.weekday]!;
      case 'lowerAmPm':
        return time.hour < 12 ? 'am' : 'pm';
      case 'upperAmPm':
        return time.hour < 12 ? 'AM' : 'PM';
      case 'fraction':
        return autoFraction(nano);
      case 'fraction3':
        return fraction(3, true);
      case 'fraction6':
        return fraction(6, true);
      case 'fraction9':
        return fraction(9, true);
      case 'digits3':
        return fraction(3, false);
      case 'digits6':
        return fraction(6, false);
      case 'digits9':
        return fraction(9, false);
      case 'zoneName':
        return zone.abbreviation(utc);
      case 'offset':
        return formatOffset(offset, true, false).slice(0, 5);
      case 'offsetColon':
        return formatOffset(offset, true, true).slice(0, 6);
      case 'offsetDoubleColon':
        return formatOffset(offset, true, true).slice(0, 6) + ':' + two(mod(Math.abs(offset), 60));
      case 'offsetTripleColon':
        return formatOffset(offset, false, false);
      case 'rfc3339':
        return (
          `${formatNumber('year', date.year, Pad.Zero)}-${two(date.month)}-${two(date.day)}T${two(time.hour)}:${two(time.minute)}:${two(time.second)}` +
          `${autoFraction(nano)}${formatOffset(offset, true, true).slice(0, 6)}`
        );
      case 'offsetPermissive':
      case 'offsetZulu':
        throw new InvalidFormat();
    }
  };

  let out = '';
  for (const item of items) {
    if (item.kind === 'literal' || item.kind === 'space') out += item.text;
    else if (item.kind === 'numeric') out += formatNumber(item.field, numeric(item.field), item.pad);
    else if (item.kind === 'fixed') out += fixed(item.fixed);
  }
  return out;
}

/** chrono's `%C`: `year.div_euclid(100) as u8` (truncated to 8 bits). */
const yearDiv100 = (year: number) => mod(Math.floor(year / 100), 256);

function formatNumber(field: Numeric, value: number, padding: Pad): string {
  const width = WIDTH[field];
  // Years beyond 0–9999 carry a sign, as ISO 8601 wants, within the width (chrono's `{:+05}`, `{:+5}`).
  if ((field === 'year' || field === 'isoYear') && (value < 0 || value > 9999)) {
    const sign = value < 0 ? '-' : '+';
    const digits = String(Math.abs(value));
    if (padding === Pad.Zero) return sign + digits.padStart(width, '0');
    return padding === Pad.Space ? (sign + digits).padStart(width + 1, ' ') : sign + digits;
  }
  // chrono writes a two-digit field's tens as one character, past `9` when the century is 100 or more.
  if (field === 'yearDiv100' && value >= 100)
    return String.fromCharCode(48 + Math.floor(value / 10), 48 + (value % 10));
  return width === Infinity ? String(value) : pad(value, width, padding);
}

function pad(value: number, width: number, padding: Pad): string {
  const text = String(Math.abs(value));
  const sign = value < 0 ? '-' : '';
  if (padding === Pad.None) return sign + text;
  return padding === Pad.Zero ? sign + text.padStart(width - sign.length, '0') : (sign + text).padStart(width, ' ');
}

const two = (n: number) => String(n).padStart(2, '0');

/** `.123`, `.123456`, `.123456789` or nothing: the shortest that is exact (chrono's `%.f`). */
function autoFraction(nano: number): string {
  if (nano === 0) return '';
  if (nano % 1_000_000 === 0) return '.' + String(nano / 1_000_000).padStart(3, '0');
  if (nano % 1_000 === 0) return '.' + String(nano / 1_000).padStart(6, '0');
  return '.' + String(nano).padStart(9, '0');
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
}

// ---- parsing ----------------------------------------------------------------------------------------

/** chrono's ParseErrorKind, by its display text. */
export const enum ParseErrorKind {
  OutOfRange = 'input is out of range',
  Impossible = 'no possible date and time matching input',
  NotEnough = 'input is not enough for unique date and time',
  Invalid = 'input contains invalid characters',
  TooShort = 'premature end of input',
  TooLong = 'trailing input',
  BadFormat = 'bad or unsupported format string',
}

export class TimestampParseError extends Error {
  constructor(readonly kind: ParseErrorKind) {
    super(kind);
  }
}

const fail = (kind: ParseErrorKind): never => {
  throw new TimestampParseError(kind);
};

/** What the text said, field by field (chrono's `Parsed`); a field set twice must agree. */
export class Parsed {
  year?: number;
  yearDiv100?: number;
  yearMod100?: number;
  isoYear?: number;
  isoYearMod100?: number;
  month?: number;
  weekFromSun?: number;
  weekFromMon?: number;
  isoWeek?: number;
  /** 0 = Sunday. */
  weekday?: number;
  ordinal?: number;
  day?: number;
  hourDiv12?: number;
  hourMod12?: number;
  minute?: number;
  second?: number;
  nanosecond?: number;
  timestamp?: number;
  offset?: number;

  set<K extends keyof Parsed>(field: K, value: number): void {
    const old = this[field];
    if (old === undefined) (this as Record<string, unknown>)[field] = value;
    else if (old !== value) fail(ParseErrorKind.Impossible);
  }

  setNumeric(field: Numeric, value: number): void {
    const nonNegative = () => value >= 0 || fail(ParseErrorKind.OutOfRange);
    switch (field) {
      case 'year':
        if (Math.abs(value) > 2 ** 31 - 1) fail(ParseErrorKind.OutOfRange);
        return this.set('year', value);
      case 'yearDiv100':
        nonNegative();
        return this.set('yearDiv100', value);
      case 'yearMod100':
        nonNegative();
        return this.set('yearMod100', value);
      case 'isoYear':
        return this.set('isoYear', value);
      case 'isoYearMod100':
        nonNegative();
        return this.set('isoYearMod100', value);
      case 'month':
        return this.set('month', value);
      case 'day':
        return this.set('day', value);
      case 'weekFromSun':
        return this.set('weekFromSun', value);
      case 'weekFromMon':
        return this.set('weekFromMon', value);
      case 'isoWeek':
        return this.set('isoWeek', value);
      case 'numDaysFromSun':
        if (value > 6) fail(ParseErrorKind.OutOfRange);
        return this.set('weekday', value);
      case 'weekdayFromMon':
        if (value < 1 || value > 7) fail(ParseErrorKind.OutOfRange);
        return this.set('weekday', value % 7);
      case 'ordinal':
        return this.set('ordinal', value);
      case 'hour':
        this.set('hourDiv12', Math.floor(value / 12));
        return this.set('hourMod12', value % 12);
      case 'hour12':
        if (value < 1 || value > 12) fail(ParseErrorKind.OutOfRange);
        return this.set('hourMod12', value % 12);
      case 'minute':
        return this.set('minute', value);
      case 'second':
        return this.set('second', value);
      case 'nanosecond':
        return this.set('nanosecond', value);
      case 'timestamp':
        return this.set('timestamp', value);
    }
  }

  /** chrono's `to_naive_date`: days since the epoch. */
  toDate(): number {
    const year = resolveYear(this.year, this.yearDiv100, this.yearMod100);
    const isoYear = resolveYear(this.isoYear, undefined, this.isoYearMod100);
    let days: number | undefined;
    if (year !== undefined && this.month !== undefined && this.day !== undefined) {
      days = fromYmd(year, this.month, this.day) ?? fail(ParseErrorKind.OutOfRange);
    } else if (year !== undefined && this.ordinal !== undefined) {
      days = fromYearOrdinal(year, this.ordinal) ?? fail(ParseErrorKind.OutOfRange);
    } else if (
      year !== undefined &&
      this.weekday !== undefined &&
      (this.weekFromSun ?? this.weekFromMon) !== undefined
    ) {
      const newYear = fromYearOrdinal(year, 1) ?? fail(ParseErrorKind.OutOfRange);
      const fromSunday = this.weekFromSun !== undefined;
      const week = fromSunday ? this.weekFromSun! : this.weekFromMon!;
      const weekday = fromSunday ? this.weekday : mod(this.weekday - 1, 7);
      const newYearWeekday = fromSunday ? weekdayFromSunday(newYear) : weekdayFromMonday(newYear);
      const firstWeek = mod(7 - newYearWeekday, 7);
      days = newYear + firstWeek + (week - 1) * 7 + weekday;
      if (week > 53 || civilFromDays(days).year !== year) fail(ParseErrorKind.OutOfRange);
    } else if (isoYear !== undefined && this.isoWeek !== undefined && this.weekday !== undefined) {
      if (
        isoYear < MIN_TIMESTAMP_YEAR ||
        isoYear > MAX_TIMESTAMP_YEAR ||
        this.isoWeek < 1 ||
        this.isoWeek > isoWeeksIn(isoYear)
      )
        fail(ParseErrorKind.OutOfRange);
      const jan4 = daysFromCivil(isoYear, 1, 4);
      days = jan4 - weekdayFromMonday(jan4) + (this.isoWeek - 1) * 7 + mod(this.weekday - 1, 7);
    } else {
      return fail(ParseErrorKind.NotEnough);
    }
    if (!this.agreesWith(dateFields(days))) fail(ParseErrorKind.Impossible);
    return days;
  }

  /** Whether every date field given agrees with the date. */
  private agreesWith(date: DateFields): boolean {
    const agree = (given: number | undefined, actual: number | undefined) => given === undefined || given === actual;
    const div = (y: number) => (y >= 0 ? Math.floor(y / 100) : undefined);
    const rem = (y: number) => (y >= 0 ? y % 100 : undefined);
    return (
      agree(this.year, date.year) &&
      agree(this.yearDiv100, div(date.year)) &&
      agree(this.yearMod100, rem(date.year)) &&
      agree(this.month, date.month) &&
      agree(this.day, date.day) &&
      agree(this.isoYear, date.isoYear) &&
      agree(this.isoYearMod100, rem(date.isoYear)) &&
      agree(this.isoWeek, date.isoWeek) &&
      agree(this.weekday, date.weekday) &&
      agree(this.ordinal, date.ordinal) &&
      agree(this.weekFromSun, date.weekFromSun) &&
      agree(this.weekFromMon, date.weekFromMon)
    );
  }

  /** chrono's `to_naive_time`: seconds of the day and nanoseconds (1e9 and more in a leap second). */
  toTime(): [number, number] {
    const hourDiv12 = this.hourDiv12 ?? fail(ParseErrorKind.NotEnough);
    const hourMod12 = this.hourMod12 ?? fail(ParseErrorKind.NotEnough);
    const minute = this.minute ?? fail(ParseErrorKind.NotEnough);
    if (hourDiv12 > 1 || hourMod12 > 11 || minute > 59) fail(ParseErrorKind.OutOfRange);
    let second = this.second ?? 0;
    let nano = 0;
    if (second === 60) [second, nano] = [59, 1_000_000_000];
    else if (second > 60) fail(ParseErrorKind.OutOfRange);
    if (this.nanosecond !== undefined) {
      if (this.nanosecond > 999_999_999) fail(ParseErrorKind.OutOfRange);
      if (this.second === undefined) fail(ParseErrorKind.NotEnough);
      nano += this.nanosecond;
    }
    return [(hourDiv12 * 12 + hourMod12) * 3600 + minute * 60 + second, nano];
  }

  /** chrono's `to_naive_datetime_with_offset`: local seconds since the epoch and nanoseconds. */
  toLocal(offset: number): [number, number] {
    const date = caught(() => this.toDate());
    const time = caught(() => this.toTime());
    if (!(date instanceof TimestampParseError) && !(time instanceof TimestampParseError)) {
      const local = date * DAY + time[0];
      // A Unix timestamp must agree; a leap second may be read as the next second.
      const timestamp = local - offset;
      if (
        this.timestamp !== undefined &&
        this.timestamp !== timestamp &&
        !(time[1] >= 1_000_000_000 && this.timestamp === timestamp + 1)
      ) {
        fail(ParseErrorKind.Impossible);
      }
      return [local, time[1]];
    }
    const errors = [date, time].filter((e): e is TimestampParseError => e instanceof TimestampParseError);
    if (this.timestamp === undefined) throw errors[0];
    // With a Unix timestamp, fields out of range or contradictory fail; missing ones come from it.
    const decisive =
      errors.find((e) => e.kind === ParseErrorKind.OutOfRange) ??
      errors.find((e) => e.kind === ParseErrorKind.Impossible);
    if (decisive) throw decisive;
    const local = this.timestamp + offset;
    const days = Math.floor(local / DAY);
    const secondOfDay = local - days * DAY;
    if (days < daysFromCivil(MIN_TIMESTAMP_YEAR, 1, 1) || days > daysFromCivil(MAX_TIMESTAMP_YEAR, 12, 31))
      fail(ParseErrorKind.OutOfRange);
    const rebuilt = Object.assign(new Parsed(), this);
    const { year } = civilFromDays(days);
    rebuilt.setNumeric('second', secondOfDay % 60);
    rebuilt.setNumeric('year', year);
    rebuilt.setNumeric('ordinal', days - daysFromCivil(year, 1, 1) + 1);
    rebuilt.setNumeric('hour', Math.floor(secondOfDay / 3600));
    rebuilt.setNumeric('minute', Math.floor(secondOfDay / 60) % 60);
    const [secondOfRebuiltDay, nano] = rebuilt.toTime();
    return [rebuilt.toDate() * DAY + secondOfRebuiltDay, nano];
  }

  /** chrono's `to_datetime`: the instant, when the text carried an offset (or a Unix timestamp). */
  toInstantWithOffset(): bigint {
    const offset = this.offset ?? (this.timestamp !== undefined ? 0 : fail(ParseErrorKind.NotEnough));
    const [local, nano] = this.toLocal(offset);
    if (Math.abs(offset) >= DAY) fail(ParseErrorKind.OutOfRange);
    return toNanos(local - offset, nano);
  }

  /** chrono's `to_datetime_with_timezone`: the instant, reading the local time in `zone`. */
  toInstantInZone(zone: TimeZone): bigint {
    const guessedOffset = this.timestamp !== undefined ? zone.offsetAt(this.timestamp) : 0;
    const [local, nano] = this.toLocal(guessedOffset);
    const agrees = (instant: number) => this.offset === undefined || local - instant === this.offset;
    const instants = instantsOfLocal(zone, local);
    if (instants.length === 0) fail(ParseErrorKind.Impossible);
    const matching = instants.filter(agrees);
    if (matching.length === 0) fail(ParseErrorKind.Impossible);
    if (matching.length > 1) fail(ParseErrorKind.NotEnough);
    return toNanos(matching[0]!, nano);
  }
}

/** The result of `f`, or the parse error it threw. */
function caught<T>(f: () => T): T | TimestampParseError {
  try {
    return f();
  } catch (error) {
    if (error instanceof TimestampParseError) return error;
    throw error;
  }
}

const I64_MAX = 2n ** 63n - 1n;

/** Nanoseconds since the epoch; out of range beyond chrono's `DateTime<Utc>`. */
function toNanos(seconds: number, nano: number): bigint {
  if (seconds < MIN_TIMESTAMP_SECONDS || seconds > MAX_TIMESTAMP_SECONDS) fail(ParseErrorKind.OutOfRange);
  return BigInt(seconds) * 1_000_000_000n + BigInt(nano);
}

function resolveYear(year: number | undefined, div: number | undefined, rem: number | undefined): number | undefined {
  if (div === undefined && rem === undefined) return year;
  if (year !== undefined && (rem === undefined || rem <= 99)) {
    if (year < 0) fail(ParseErrorKind.OutOfRange);
    return (div ?? Math.floor(year / 100)) === Math.floor(year / 100) && (rem ?? year % 100) === year % 100
      ? year
      : fail(ParseErrorKind.Impossible);
  }
  if (year === undefined && div !== undefined && rem !== undefined && rem <= 99) return div * 100 + rem;
  if (year === undefined && div === undefined && rem !== undefined && rem <= 99) return rem + (rem < 70 ? 2000 : 1900);
  if (year === undefined && rem === undefined) return fail(ParseErrorKind.NotEnough);
  return fail(ParseErrorKind.OutOfRange);
}

/** Reads `text` with `format` into its fields (chrono's `format::parse`). */
export function parseStrftime(text: string, format: string): Parsed {
  const parsed = new Parsed();
  const rest = parseItems(parsed, text, strftimeItems(format));
  if (rest !== '') fail(ParseErrorKind.TooLong);
  return parsed;
}

/** `s` without its leading whitespace (Unicode's); most text starts with none. */
const trimStart = (s: string) => {
  const first = s.charCodeAt(0);
  return first > 0x20 && first < 0x7f ? s : s.replace(/^\s+/u, '');
};
const utf8Length = (s: string) => Buffer.byteLength(s);

/** Parses `items` from the start of `s` into `parsed`; returns what is left. */
function parseItems(parsed: Parsed, s: string, items: readonly Item[]): string {
  for (const item of items) {
    switch (item.kind) {
      case 'literal':
        // A UTF-16 unit is at most three UTF-8 bytes: text three times as long is long enough.
        if (s.length < 3 * item.text.length && utf8Length(s) < utf8Length(item.text)) fail(ParseErrorKind.TooShort);
        if (!s.startsWith(item.text)) fail(ParseErrorKind.Invalid);
        s = s.slice(item.text.length);
        break;
      case 'space':
        s = trimStart(s);
        break;
      case 'numeric':
        s = parseNumeric(parsed, trimStart(s), item.field);
        break;
      case 'fixed':
        s = parseFixed(parsed, s, item.fixed);
        break;
      case 'error':
        fail(ParseErrorKind.BadFormat);
    }
  }
  return s;
}

function parseNumeric(parsed: Parsed, s: string, field: Numeric): string {
  let value: number;
  // Years may carry a sign, and then any number of digits.
  if ((field === 'year' || field === 'isoYear') && (s[0] === '-' || s[0] === '+')) {
    const negative = s[0] === '-';
    [s, value] = scanNumber(s.slice(1), 1, Infinity);
    if (negative) value = -value;
  } else {
    [s, value] = scanNumber(s, 1, WIDTH[field]);
  }
  parsed.setNumeric(field, value);
  return s;
}

/** Digits a double holds exactly whatever they are. */
const EXACT_DIGITS = 15;

/** 1 to `max` ASCII digits (chrono's `scan::number`). */
function scanNumber(s: string, min: number, max: number): [string, number] {
  if (s.length < min) fail(ParseErrorKind.TooShort);
  let i = 0;
  let value = 0;
  for (; i < max && i < EXACT_DIGITS && i < s.length; i++) {
    const digit = s.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  if (i === EXACT_DIGITS && i < max && isDigit(s[i])) return scanLongNumber(s, min, max);
  if (i < min) fail(ParseErrorKind.Invalid);
  return [s.slice(i), value];
}

/** `scanNumber` of a run of more than EXACT_DIGITS digits: read as an i64, out of range past it. */
function scanLongNumber(s: string, min: number, max: number): [string, number] {
  let i = 0;
  let value = 0n;
  while (i < max && i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) {
    value = value * 10n + BigInt(s.charCodeAt(i) - 48);
    if (value > I64_MAX) fail(ParseErrorKind.OutOfRange);
    i++;
  }
  if (i < min) fail(ParseErrorKind.Invalid);
  return [s.slice(i), Number(value)];
}

function parseFixed(parsed: Parsed, s: string, fixed: Fixed): string {
  switch (fixed) {
    case 'shortMonthName':
    case 'longMonthName': {
      const [rest, month] = scanName(s, MONTHS, fixed === 'longMonthName');
      parsed.set('month', month + 1);
      return rest;
    }
    case 'shortWeekdayName':
    case 'longWeekdayName': {
      const [rest, weekday] = scanName(s, WEEKDAYS, fixed === 'longWeekdayName');
      parsed.set('weekday', weekday);
      return rest;
    }
    case 'lowerAmPm':
    case 'upperAmPm': {
      if (utf8Length(s) < 2) fail(ParseErrorKind.TooShort);
      const ampm = asciiLower(s.slice(0, 2));
      parsed.set('hourDiv12', ampm === 'am' ? 0 : ampm === 'pm' ? 1 : fail(ParseErrorKind.Invalid));
      return s.slice(2);
    }
    case 'fraction':
    case 'fraction3':
    case 'fraction6':
    case 'fraction9': {
      if (!s.startsWith('.')) return s;
      const [rest, digits] = scanNumber(s.slice(1), 1, 9);
      parsed.set('nanosecond', digits * 10 ** (9 - (s.length - 1 - rest.length)));
      return rest.replace(/^[0-9]+/, ''); // digits beyond nanoseconds are ignored
    }
    case 'digits3':
    case 'digits6':
    case 'digits9': {
      const width = Number(fixed.slice(-1));
      const [rest, digits] = scanNumber(s, width, width);
      parsed.set('nanosecond', digits * 10 ** (9 - width));
      return rest;
    }
    case 'zoneName':
      // chrono cannot read zone names: it skips the word.
      return s.replace(/^\S+/u, '');
    case 'offset':
    case 'offsetColon':
    case 'offsetDoubleColon':
    case 'offsetTripleColon':
    case 'offsetPermissive':
    case 'offsetZulu': {
      const [rest, offset] = scanOffset(trimStart(s), fixed);
      parsed.set('offset', offset);
      return rest;
    }
    case 'rfc3339':
      return parseRfc3339(parsed, s);
  }
}

/** A month or weekday name: its first three letters in any case, and with `long` the rest if present. */
function scanName(s: string, names: readonly string[], long: boolean): [string, number] {
  if (utf8Length(s) < 3) fail(ParseErrorKind.TooShort);
  const head = asciiLower(s.slice(0, 3));
  const index = names.findIndex((name) => name.slice(0, 3).toLowerCase() === head);
  if (index < 0) fail(ParseErrorKind.Invalid);
  const suffix = names[index]!.slice(3).toLowerCase();
  const rest = s.slice(3);
  return [long && asciiLower(rest.slice(0, suffix.length)) === suffix ? rest.slice(suffix.length) : rest, index];
}

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) | 32));
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** `+hh:mm`, `+hhmm`, `+hh mm` (chrono's `scan::timezone_offset` and its `Z` and missing-minutes forms). */
function scanOffset(s: string, fixed: Fixed): [string, number] {
  if ((fixed === 'offsetPermissive' || fixed === 'offsetZulu') && (s[0] === 'Z' || s[0] === 'z'))
    return [s.slice(1), 0];
  if (fixed === 'offsetZulu' && (s[0] === 'U' || s[0] === 'u')) {
    return asciiLower(s.slice(1, 3)) === 'tc' ? [s.slice(3), 0] : fail(ParseErrorKind.Invalid);
  }
  if (s === '') fail(ParseErrorKind.TooShort);
  if (s[0] !== '+' && s[0] !== '-') fail(ParseErrorKind.Invalid);
  const negative = s[0] === '-';
  s = s.slice(1);
  if (utf8Length(s) < 2) fail(ParseErrorKind.TooShort);
  if (!isDigit(s[0]) || !isDigit(s[1])) fail(ParseErrorKind.Invalid);
  const hours = Number(s.slice(0, 2));
  s = s.slice(2).replace(/^[:\s]+/u, '');
  let minutes = 0;
  if (utf8Length(s) >= 2) {
    if (!isDigit(s[0]) || !isDigit(s[1])) fail(ParseErrorKind.Invalid);
    if (s[0]! > '5') fail(ParseErrorKind.OutOfRange);
    minutes = Number(s.slice(0, 2));
    s = s.slice(2);
  } else if (fixed !== 'offsetPermissive' || s !== '') {
    fail(ParseErrorKind.TooShort);
  }
  const seconds = hours * 3600 + minutes * 60;
  return [s, negative ? -seconds : seconds];
}

/** `%+`: RFC 3339, relaxed as chrono reads it (`T`, `t` or nothing between date and time). */
function parseRfc3339(parsed: Parsed, s: string): string {
  s = parseItems(parsed, s, RFC3339_DATE);
  if (s === '') fail(ParseErrorKind.TooShort);
  if (s[0] === 'T' || s[0] === 't') s = s.slice(1);
  return parseItems(parsed, s, RFC3339_TIME);
}
