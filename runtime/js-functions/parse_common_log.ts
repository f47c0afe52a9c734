// parse_common_log(value, timestamp_format): VRL's Common Log Format regex; `-` fields are left out.

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { COMMON_LOG_FORMAT } from '../../abi/access-log.js';
import { parseLogLine } from './support/log-fields.js';

export const parse_common_log: JsFunction = ([value, timestampFormat], context) =>
  parseLogLine(
    stringArg(value!),
    COMMON_LOG_FORMAT,
    timestampFormat == null ? undefined : stringArg(timestampFormat),
    context,
  );
