// The `schema` types of a file enrichment table: Vector's `Conversion` of a CSV field (string, integer, float,
// boolean, timestamp with or without a format) and the file table's own `date` and `date|<format>`.

import { Timestamp, type RemapValue } from '../../abi/values.js';
import { formatHasZone } from '../../abi/strftime-items.js';
import {
  floatValue,
  namedTimeZone,
  parseStrftime,
  TimestampParseError,
  type TimeZone,
} from '../../runtime/enrichment.js';

export type Conversion = (text: string) => RemapValue;

const NAMES = ['string', 'asis', 'bytes', 'integer', 'int', 'float', 'bool', 'boolean', 'timestamp', 'date'];

/** The conversion a `schema` type names; undefined when it names none. */
export function conversion(type: string, timezone: string): Conversion | undefined {
  const [name, format] = splitFormat(type);
  if (format !== undefined) {
    if (name === 'timestamp') return timestampWithFormat(format, namedTimeZone(timezone));
    if (name === 'date') return (text) => dateTimestamp(parseTime(text, format).toDate());
    return undefined;
  }
  switch (name) {
    case 'string':
    case 'asis':
    case 'bytes':
      return (text) => text;
    case 'integer':
    case 'int':
      return integer;
    case 'float':
      return float;
    case 'bool':
    case 'boolean':
      return boolean;
    case 'timestamp':
      return anyTimestamp(namedTimeZone(timezone));
    case 'date':
      return (text) => dateTimestamp(parseTime(text, '%Y-%m-%d').toDate());
    default:
      return undefined;
  }
}

/** Why `type` names no conversion. */
export function conversionProblem(type: string): string {
  return `unknown type "${type}": expected one of ${NAMES.map((name) => `"${name}"`).join(', ')}, "timestamp|<format>" or "date|<format>"`;
}

function splitFormat(type: string): [string, string | undefined] {
  const bar = type.indexOf('|');
  return bar < 0 ? [type, undefined] : [type.slice(0, bar), type.slice(bar + 1)];
}

/** Rust's `i64::from_str`: an optional sign and decimal digits. */
function integer(text: string): RemapValue {
  if (!/^[+-]?\d+$/.test(text)) throw new Error(`invalid integer "${text}"`);
  const value = BigInt(text);
  if (value < -(2n ** 63n) || value >= 2n ** 63n) throw new Error(`integer "${text}" is out of range`);
  return value;
}

/** Rust's `f64::from_str`: decimal or exponent notation, `inf`, `infinity`, `nan`, any case. */
function float(text: string): RemapValue {
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special) {
    if (special[2]!.toLowerCase() === 'nan') return Number.NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`invalid float "${text}"`);
  return floatValue(Number(text));
}

/** Vector's `parse_bool`: a few words, else an integer (non-zero is true). */
function boolean(text: string): RemapValue {
  switch (text) {
    case 'true':
    case 't':
    case 'yes':
    case 'y':
      return true;
    case 'false':
    case 'f':
    case 'no':
    case 'n':
    case '0':
      return false;
  }
  if (/^[+-]?\d+$/.test(text)) return BigInt(text) !== 0n;
  throw new Error(`invalid boolean "${text}"`);
}

function parseTime(text: string, format: string) {
  try {
    return parseStrftime(text, format);
  } catch (error) {
    if (error instanceof TimestampParseError)
      throw new Error(`invalid timestamp "${text}" for format "${format}": ${error.message}`);
    throw error;
  }
}

const NANOS_PER_DAY = 86_400_000_000_000n;
const dateTimestamp = (days: number) => new Timestamp(BigInt(days) * NANOS_PER_DAY);

/** A format with a zone or offset reads that offset; any other reads local time in the zone. */
function timestampWithFormat(format: string, zone: TimeZone): Conversion {
  const withZone = formatHasZone(format);
  return (text) => {
    const parsed = parseTime(text, format);
    return new Timestamp(withZone ? parsed.toInstantWithOffset() : parsed.toInstantInZone(zone));
  };
}

/** Vector's formats for a `timestamp` without one: local ones first, then RFC 3339, RFC 2822 and zoned ones. */
const LOCAL_FORMATS = [
  '%F %T',
  '%v %T',
  '%FT%T',
  '%m/%d/%Y:%T',
  '%a, %d %b %Y %T',
  '%a %d %b %T %Y',
  '%A %d %B %T %Y',
  '%a %b %e %T %Y',
];
const ZONED_FORMATS = [
  '%+',
  '%a, %d %b %Y %T %z',
  '%a %d %b %T %Z %Y',
  '%a %d %b %T %z %Y',
  '%a %d %b %T %#z %Y',
  '%d/%b/%Y:%T %z',
];

function anyTimestamp(zone: TimeZone): Conversion {
  return (text) => {
    for (const format of LOCAL_FORMATS) {
      try {
        return new Timestamp(parseStrftime(text, format).toInstantInZone(zone));
      } catch {}
    }
    for (const format of ZONED_FORMATS) {
      try {
        return new Timestamp(parseStrftime(text, format).toInstantWithOffset());
      } catch {}
    }
    throw new Error(`invalid timestamp "${text}"`);
  };
}
