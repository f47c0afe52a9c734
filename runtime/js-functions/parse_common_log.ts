// parse_common_log(value, timestamp_format): VRL's Common Log Format regex; `-` fields are left out.

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { COMMON_LOG } from './support/access-log-regexes.js';
import { parseLogLine, type FieldTypes } from './support/log-fields.js';

export const DEFAULT_ACCESS_TIMESTAMP_FORMAT = '%d/%b/%Y:%T %z';

export const COMMON_LOG_TYPES: FieldTypes = { timestamp: 'timestamp', status: 'integer', size: 'integer' };

export const parse_common_log: JsFunction = ([value, timestampFormat], context) => {
  const format =
    timestampFormat === null || timestampFormat === undefined
      ? DEFAULT_ACCESS_TIMESTAMP_FORMAT
      : stringArg(timestampFormat);
  return parseLogLine(stringArg(value!), [COMMON_LOG], COMMON_LOG_TYPES, 'common', format, context);
};
