// strftime formats as the item programs that stdlib-as/strftime.ts runs, so that `format_timestamp` in UTC
// and `parse_timestamp` need no call of their JS functions. The compiler builds the program of a literal
// format; the runtime builds it for a format known only at run time (the `svc_js.strftime_program` import),
// once per distinct format.
//
// Format program (`strftime_format_utc`), one entry after another:
//   0 len text      literal bytes (len ≤ 255)
//   1 field pad width   a numeric field (index in NUMERIC_FIELDS; width 0: never padded, the Unix timestamp)
//   2 name          a month or weekday name or am/pm (index in NAMES)
//   3 digits dot    fractional seconds: 3, 6 or 9 digits, 0 for chrono's shortest exact; dot 1 for a `.`
// In UTC the offset is 0 and the zone is "UTC", so those items are literal text here.
//
// Parse program (`strftime_parse`): a first byte, 0 when the text carries an offset (the format has a zone,
// VRL's `format_has_zone`), 1 when it is local time in the instance's time zone; then the entries:
//   0 len text      literal bytes
//   1 slot width    a number of 1 to `width` digits after ASCII whitespace (slot: index in PARSE_SLOTS)
//   2 long          a month name (long 1: the full name may follow the three letters)
//   3 digits        fractional seconds: exactly 3, 6 or 9 digits, or (0) a `.` and 1–9 digits, or nothing
//   4               ASCII whitespace, skipped
//   5 zulu          an offset: `+hh:mm`, `+hhmm`, `+hh mm`, and with zulu 1 also `Z` or `UTC` in any case
//   6               between the date and time of `%+`: `T`, `t` or nothing, but not the end of the text

import {
  formatHasZone,
  RFC3339_DATE,
  RFC3339_TIME,
  strftimeItems,
  WIDTH,
  type Fixed,
  type Item,
  type Numeric,
} from './strftime-items.js';
import {
  FormatOp,
  NameItem,
  NumericField,
  Pad,
  ParseOp,
  ParseResolution,
  ParseSlot,
  ProgramKind,
} from './wire/strftime-program.js';

export { ProgramKind };

/** The numeric field code of each of chrono's numeric items. */
const NUMERIC_FIELDS: Readonly<Record<Numeric, NumericField>> = {
  year: NumericField.Year,
  yearDiv100: NumericField.YearDiv100,
  yearMod100: NumericField.YearMod100,
  isoYear: NumericField.IsoYear,
  isoYearMod100: NumericField.IsoYearMod100,
  month: NumericField.Month,
  day: NumericField.Day,
  weekFromSun: NumericField.WeekFromSun,
  weekFromMon: NumericField.WeekFromMon,
  isoWeek: NumericField.IsoWeek,
  numDaysFromSun: NumericField.NumDaysFromSun,
  weekdayFromMon: NumericField.WeekdayFromMon,
  ordinal: NumericField.Ordinal,
  hour: NumericField.Hour,
  hour12: NumericField.Hour12,
  minute: NumericField.Minute,
  second: NumericField.Second,
  nanosecond: NumericField.Nanosecond,
  timestamp: NumericField.Timestamp,
};

/** The name code of each of chrono's name items. */
const NAMES: Partial<Record<Fixed, NameItem>> = {
  shortMonthName: NameItem.ShortMonth,
  longMonthName: NameItem.LongMonth,
  shortWeekdayName: NameItem.ShortWeekday,
  longWeekdayName: NameItem.LongWeekday,
  lowerAmPm: NameItem.LowerAmPm,
  upperAmPm: NameItem.UpperAmPm,
};

/** Fixed items whose text in UTC does not depend on the instant (abi/strftime.ts's formatting at offset 0). */
const UTC_TEXT: Partial<Record<Fixed, string>> = {
  zoneName: 'UTC',
  offset: '+0000',
  offsetColon: '+00:00',
  offsetDoubleColon: '+00:00:00',
  offsetTripleColon: '+00',
};

const FRACTIONS: Partial<Record<Fixed, [digits: number, dot: boolean]>> = {
  fraction: [0, true],
  fraction3: [3, true],
  fraction6: [6, true],
  fraction9: [9, true],
  digits3: [3, false],
  digits6: [6, false],
  digits9: [9, false],
};

/** The item program of `format` in UTC; undefined for a format the JS function rejects (its error says why). */
function utcFormatProgram(format: string): Uint8Array | undefined {
  const out: number[] = [];
  const literal = (text: string) => pushLiteral(out, text);
  const numeric = (field: Numeric, pad: Pad) => {
    const width = WIDTH[field];
    out.push(FormatOp.Numeric, NUMERIC_FIELDS[field], pad, width === Infinity ? 0 : width);
  };
  const emit = (item: Item): boolean => {
    switch (item.kind) {
      case 'literal':
      case 'space':
        literal(item.text);
        return true;
      case 'numeric':
        numeric(item.field, item.pad);
        return true;
      case 'fixed':
        return emitFixed(item.fixed);
      case 'error':
        return false;
    }
  };
  const emitFixed = (fixed: Fixed): boolean => {
    const text = UTC_TEXT[fixed];
    const fraction = FRACTIONS[fixed];
    if (text !== undefined) literal(text);
    else if (fraction !== undefined) out.push(FormatOp.Fraction, fraction[0], fraction[1] ? 1 : 0);
    else if (NAMES[fixed] !== undefined) out.push(FormatOp.Name, NAMES[fixed]);
    else if (fixed === 'rfc3339') {
      numeric('year', Pad.Zero);
      literal('-');
      numeric('month', Pad.Zero);
      literal('-');
      numeric('day', Pad.Zero);
      literal('T');
      numeric('hour', Pad.Zero);
      literal(':');
      numeric('minute', Pad.Zero);
      literal(':');
      numeric('second', Pad.Zero);
      out.push(FormatOp.Fraction, 0, 1);
      literal('+00:00');
    } else return false; // `%#z` only parses
    return true;
  };
  return strftimeItems(format).every(emit) ? Uint8Array.from(out) : undefined;
}

/**
 * The parse program of a `parse_timestamp` format (trimmed here, as parse_timestamp trims it) when it reads
 * numeric date and time fields, month names, fractions and, in a format with a zone, an offset; undefined
 * otherwise (the JS function reads it).
 */
function parseProgram(format: string): Uint8Array | undefined {
  format = format.trim();
  const withOffset = formatHasZone(format);
  const out: number[] = [withOffset ? ParseResolution.WithOffset : ParseResolution.InLocalZone];
  let offset = false;
  const emit = (item: Item): boolean => {
    if (item.kind === 'literal') pushLiteral(out, item.text);
    else if (item.kind === 'space') out.push(ParseOp.Space);
    else if (item.kind === 'numeric' && PARSE_SLOTS[item.field] !== undefined) {
      out.push(ParseOp.Numeric, PARSE_SLOTS[item.field]!, WIDTH[item.field]);
    } else if (item.kind === 'fixed' && (item.fixed === 'shortMonthName' || item.fixed === 'longMonthName')) {
      out.push(ParseOp.MonthName, item.fixed === 'longMonthName' ? 1 : 0);
    } else if (item.kind === 'fixed' && PARSE_FRACTIONS[item.fixed] !== undefined) {
      out.push(ParseOp.Fraction, PARSE_FRACTIONS[item.fixed]!);
    } else if (item.kind === 'fixed' && (OFFSETS.includes(item.fixed) || item.fixed === 'offsetZulu')) {
      out.push(ParseOp.Offset, item.fixed === 'offsetZulu' ? 1 : 0);
      offset = true;
    } else if (item.kind === 'fixed' && item.fixed === 'rfc3339') {
      const date = RFC3339_DATE.every(emit);
      out.push(ParseOp.DateTimeSeparator);
      return date && RFC3339_TIME.every(emit);
    } else return false;
    return true;
  };
  // A local time must not read an offset (`%::z` is no zone to format_has_zone, yet chrono checks it).
  return strftimeItems(format).every(emit) && offset === withOffset ? Uint8Array.from(out) : undefined;
}

/** The program of `kind` for `format`, as the compiler would build it for a literal; undefined for none. */
export function strftimeProgram(kind: ProgramKind, format: string): Uint8Array | undefined {
  return kind === ProgramKind.UtcFormat ? utcFormatProgram(format) : parseProgram(format);
}

/** The slot of each numeric item a parse program reads. */
const PARSE_SLOTS: Partial<Record<Numeric, ParseSlot>> = {
  year: ParseSlot.Year,
  month: ParseSlot.Month,
  day: ParseSlot.Day,
  hour: ParseSlot.Hour,
  minute: ParseSlot.Minute,
  second: ParseSlot.Second,
  nanosecond: ParseSlot.Nanosecond,
};

/** Digits of each fraction item (0: a `.` and 1–9 digits, or nothing). */
const PARSE_FRACTIONS: Partial<Record<Fixed, number>> = {
  fraction: 0,
  fraction3: 0,
  fraction6: 0,
  fraction9: 0,
  digits3: 3,
  digits6: 6,
  digits9: 9,
};

const OFFSETS: readonly Fixed[] = ['offset', 'offsetColon', 'offsetDoubleColon', 'offsetTripleColon'];

/** A literal entry (`Literal` in both layouts) of at most 255 bytes each, `text` split as needed. */
function pushLiteral(out: number[], text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += 255) {
    const run = bytes.subarray(at, at + 255);
    out.push(FormatOp.Literal, run.length, ...run);
  }
}
