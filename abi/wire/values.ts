// Values on the wire and in the module's memory (docs/abi.md §1). Compiled by tsc and asc alike (abi/wire/:
// plain constants and const enums only, no imports), so the TypeScript and AssemblyScript sides share them.

/** Value tags of the binary codec (docs/abi.md §1). */
export const enum Wire {
  Null = 0,
  False = 1,
  True = 2,
  Int = 3,
  Float = 4,
  Bytes = 5,
  Timestamp = 6,
  Regex = 7,
  Array = 8,
  Object = 9,
  /** Only in a module's constants (docs/abi.md §7): a regex and its compiled program. */
  RegexProgram = 10,
}

/** Tags of the 16-byte value records in the module's memory (stdlib-as/value.ts); containers come last. */
export const enum Tag {
  Null = 0,
  Bool = 1,
  Int = 2,
  Float = 3,
  Bytes = 4,
  Timestamp = 5,
  Regex = 6,
  Array = 7,
  Object = 8,
}

/**
 * The range of timestamps, chrono's `DateTime<Utc>` (VRL's) in seconds since the epoch:
 * -262143-01-01T00:00:00Z to +262142-12-31T23:59:59.999999999Z.
 */
export const MIN_TIMESTAMP_SECONDS = -8_334_601_228_800;
export const MAX_TIMESTAMP_SECONDS = 8_210_266_876_799;
/** chrono's `NaiveDate` years (0.4.45, VRL 0.35's): a date beyond them does not exist even where an offset
 * would bring its instant back into the range. */
export const MIN_TIMESTAMP_YEAR = -262_143;
export const MAX_TIMESTAMP_YEAR = 262_142;

/** The deepest nesting of arrays and objects a value may have (docs/value-limits.md). */
export const MAX_VALUE_DEPTH = 1000;
