// parse_websrv1_log (parse_apache_log)(value, format, timestamp_format): Apache's common, combined and error
// formats with VRL's regexes.

import type { JsFunction } from '../imports.js';
import type { RustRegex } from '../../abi/regex.js';
import { stringArg } from './support/args.js';
import { APACHE_COMBINED_LOG, APACHE_ERROR_LOG, COMMON_LOG } from './support/access-log-regexes.js';
import { parseLogLine, type FieldTypes } from './support/log-fields.js';
import { COMMON_LOG_TYPES, DEFAULT_ACCESS_TIMESTAMP_FORMAT } from './parse_common_log.js';

const FORMATS: Readonly<Record<string, { regex: RustRegex; types: FieldTypes }>> = {
  common: { regex: COMMON_LOG, types: COMMON_LOG_TYPES },
  combined: { regex: APACHE_COMBINED_LOG, types: COMMON_LOG_TYPES },
  error: { regex: APACHE_ERROR_LOG, types: { timestamp: 'timestamp', pid: 'integer', port: 'integer' } },
};

export const parse_websrv1_log: JsFunction = ([value, format, timestampFormat], context) => {
  const name = stringArg(format!);
  const spec = FORMATS[name];
  if (!spec) throw new Error(`invalid format: ${name}`);
  const tsFormat =
    timestampFormat === null || timestampFormat === undefined
      ? DEFAULT_ACCESS_TIMESTAMP_FORMAT
      : stringArg(timestampFormat);
  return parseLogLine(stringArg(value!), [spec.regex], spec.types, name, tsFormat, context);
};
