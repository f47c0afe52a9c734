// parse_websrv1_log (parse_apache_log)(value, format, timestamp_format): Apache's common, combined and error
// formats with VRL's regexes.

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { APACHE_LOG_FORMATS } from '../../abi/access-log.js';
import { parseLogLine } from './support/log-fields.js';

export const parse_websrv1_log: JsFunction = ([value, format, timestampFormat], context) => {
  const name = stringArg(format!);
  const spec = APACHE_LOG_FORMATS[name];
  if (!spec) throw new Error(`invalid format: ${name}`);
  return parseLogLine(
    stringArg(value!),
    spec,
    timestampFormat == null ? undefined : stringArg(timestampFormat),
    context,
  );
};
