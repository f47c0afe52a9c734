// parse_timestamp(value, format, timezone): VRL's `Conversion::Timestamp`. A format that mentions an offset
// or zone reads a fixed-offset time; any other reads local time in `timezone` (default: the compile option).

import type { JsFunction } from '../imports.js';
import { formatHasZone } from '../../abi/strftime-items.js';
import { parseStrftime, TimestampParseError } from '../../abi/strftime.js';
import { lossyText, rustDebugString } from '../text.js';
import { namedTimeZone } from '../time-zones.js';
import { Timestamp } from '../../abi/values.js';
import { kindName, stringArg } from './support/args.js';

export const parse_timestamp: JsFunction = ([value, format, timezone], context) => {
  if (value instanceof Timestamp) return value;
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) {
    throw new Error(`unable to convert ${kindName(value!)} value to timestamp`);
  }
  const pattern = stringArg(format!).trim();
  const zone = namedTimeZone(timezone === null || timezone === undefined ? context.timezone : stringArg(timezone));
  const text = lossyText(value);
  try {
    const parsed = parseStrftime(text, pattern);
    return new Timestamp(formatHasZone(pattern) ? parsed.toInstantWithOffset() : parsed.toInstantInZone(zone));
  } catch (error) {
    if (error instanceof TimestampParseError)
      throw new Error(`Invalid timestamp ${rustDebugString(text)}: ${error.message}`);
    throw error;
  }
};
