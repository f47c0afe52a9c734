// strftime item programs (layouts in abi/strftime-program.ts): built by the compiler and the runtime, run by
// stdlib-as/strftime.ts. Shared by tsc and asc (see values.ts).

/** Programs the runtime builds on request (`svc_js.strftime_program`'s first argument). */
export const enum ProgramKind {
  UtcFormat,
  Parse,
}

/** Entries of a format program. */
export const enum FormatOp {
  Literal,
  Numeric,
  Name,
  Fraction,
}

/** Numeric fields of a format program's `Numeric` entry (chrono's `Numeric`). */
export const enum NumericField {
  Year,
  YearDiv100,
  YearMod100,
  IsoYear,
  IsoYearMod100,
  Month,
  Day,
  WeekFromSun,
  WeekFromMon,
  IsoWeek,
  NumDaysFromSun,
  WeekdayFromMon,
  Ordinal,
  Hour,
  Hour12,
  Minute,
  Second,
  Nanosecond,
  Timestamp,
}

/** Padding of a numeric field (chrono's `Pad`). */
export const enum Pad {
  None,
  Zero,
  Space,
}

/** Names of a format program's `Name` entry. */
export const enum NameItem {
  ShortMonth,
  LongMonth,
  ShortWeekday,
  LongWeekday,
  LowerAmPm,
  UpperAmPm,
}

/** How a parse program's instant is found (its first byte). */
export const enum ParseResolution {
  WithOffset,
  InLocalZone,
}

/** Entries of a parse program. */
export const enum ParseOp {
  Literal,
  Numeric,
  MonthName,
  Fraction,
  Space,
  Offset,
  DateTimeSeparator,
}

/** Fields a parse program sets; its `Numeric` entries name the first seven. */
export const enum ParseSlot {
  Year,
  Month,
  Day,
  Hour,
  Minute,
  Second,
  Nanosecond,
  Offset,
}

/** `svc_js.tz_offset_in`'s answer for a `timezone` that names no time zone (the JS function words the error). */
export const NO_ZONE_OFFSET = 0x7fffffff;
