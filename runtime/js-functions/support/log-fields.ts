// Shared by the access/error log parsers (VRL's `log_util`): a line matched by one of a format's regexes
// becomes an object of its participating named groups, each typed by its name.

import type { JsCallContext } from '../../imports.js';
import { parseStrftime, TimestampParseError } from '../../../abi/strftime.js';
import { namedTimeZone } from '../../time-zones.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import type { RustRegex } from '../../../abi/regex.js';
import { floatValue } from './float.js';

const INTEGER = /^[+-]?\d+$/;

/** How a captured field is typed; fields not listed stay strings. */
export type FieldTypes = Readonly<Record<string, 'integer' | 'float' | 'timestamp'>>;

/** VRL's `parse_time`: the local time in the zone, else the offset the text gives. */
function logTimestamp(text: string, format: string, timezone: string): Timestamp {
  try {
    const parsed = parseStrftime(text, format);
    try {
      return new Timestamp(parsed.toInstantInZone(namedTimeZone(timezone)));
    } catch {
      return new Timestamp(parsed.toInstantWithOffset());
    }
  } catch (error) {
    if (!(error instanceof TimestampParseError)) throw error;
    throw new Error(`failed parsing timestamp ${text} using format ${format}: ${error.message}`);
  }
}

/**
 * The first of `regexes` that matches `line`, as typed fields; `format` names the log format in the error.
 * Groups that did not take part are left out.
 */
export function parseLogLine(
  line: string,
  regexes: readonly RustRegex[],
  types: FieldTypes,
  format: string,
  timestampFormat: string,
  context: JsCallContext,
): Record<string, RemapValue> {
  let matched: { regex: RustRegex; groups: ArrayLike<string | undefined> } | undefined;
  for (const regex of regexes) {
    const m = regex.exec(line);
    if (m) {
      matched = { regex, groups: m.groups };
      break;
    }
  }
  if (!matched) throw new Error(`failed parsing ${format} log line`);
  const fields: Record<string, RemapValue> = Object.create(null);
  for (const [name, group] of matched.regex.names) {
    const text = matched.groups[group];
    if (text === undefined) continue;
    switch (types[name]) {
      case 'timestamp':
        fields[name] = logTimestamp(text, timestampFormat, context.timezone);
        break;
      case 'integer': {
        const integer = INTEGER.test(text) ? BigInt(text) : undefined;
        if (integer === undefined || BigInt.asIntN(64, integer) !== integer) throw new Error(`failed parsing ${name}`);
        fields[name] = integer;
        break;
      }
      case 'float': {
        const value = Number(text);
        if (text.trim() === '' || Number.isNaN(value)) throw new Error(`failed parsing ${name}`);
        fields[name] = floatValue(value);
        break;
      }
      default:
        fields[name] = text;
    }
  }
  return fields;
}
