// Shared by the access/error log parsers (VRL's `log_util`): a line matched by one of a format's regexes
// becomes an object of its participating named groups, each typed by its name.

import type { JsCallContext } from '../../imports.js';
import { parseStrftime, TimestampParseError } from '../../../abi/strftime.js';
import { namedTimeZone } from '../../time-zones.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import { RustRegex } from '../../../abi/regex.js';
import type { LogFormat } from '../../../abi/access-log.js';
import { floatValue } from './float.js';

const INTEGER = /^[+-]?\d+$/;

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

/** Each format's regex, compiled at its first line. */
const regexes = new Map<LogFormat, RustRegex>();

/**
 * `line` parsed with `format` as typed fields, the timestamp read with `timestampFormat` (null or undefined:
 * the format's default). Groups that did not take part are left out.
 */
export function parseLogLine(
  line: string,
  format: LogFormat,
  timestampFormat: string | undefined,
  context: JsCallContext,
): Record<string, RemapValue> {
  let regex = regexes.get(format);
  if (!regex) regexes.set(format, (regex = new RustRegex(format.pattern)));
  const m = regex.exec(line);
  if (!m) throw new Error(`failed parsing ${format.name} log line`);
  const fields: Record<string, RemapValue> = Object.create(null);
  for (const [name, group] of regex.names) {
    const text = m.groups[group];
    if (text === undefined) continue;
    switch (format.types[name]) {
      case 'timestamp':
        fields[name] = logTimestamp(text, timestampFormat ?? format.timestampFormat, context.timezone);
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
