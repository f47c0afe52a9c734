// Timestamp literals (`t'…'`): VRL reads them with chrono's `DateTime<Utc>::from_str`, the relaxed RFC 3339
// of `%+` (abi/strftime.ts): one- or two-digit fields, spaces between them, a signed year of any width, `Z`,
// `UTC` or an offset with or without its colon. E601 where chrono refuses, with chrono's reason.

import { parseStrftime, TimestampParseError } from '../../abi/strftime.js';

/** Nanoseconds since the epoch of a timestamp literal, or chrono's reason for refusing it. */
export function readTimestampLiteral(text: string): { nanos: bigint } | { problem: string } {
  try {
    return { nanos: parseStrftime(text, '%+').toInstantWithOffset() };
  } catch (error) {
    if (error instanceof TimestampParseError) return { problem: error.message };
    throw error;
  }
}

/** Nanoseconds since the epoch of a timestamp literal the checker accepted. */
export function timestampNanos(text: string): bigint {
  const read = readTimestampLiteral(text);
  if ('problem' in read) throw new Error(`invalid timestamp literal ${text}: ${read.problem}`);
  return read.nanos;
}
