// parse_websrv2_log (parse_nginx_log)(value, format, timestamp_format): Nginx's combined, main,
// ingress_upstreaminfo and error formats with VRL's regexes. The error format's own time layout is the default
// there.

import type { JsFunction } from '../imports.js';
import type { RustRegex } from '../../abi/regex.js';
import { stringArg } from './support/args.js';
import {
  NGINX_COMBINED_LOG,
  NGINX_ERROR_LOG,
  NGINX_INGRESS_UPSTREAMINFO_LOG,
  NGINX_MAIN_LOG,
} from './support/access-log-regexes.js';
import { parseLogLine, type FieldTypes } from './support/log-fields.js';
import { DEFAULT_ACCESS_TIMESTAMP_FORMAT } from './parse_common_log.js';

const TYPES: FieldTypes = {
  timestamp: 'timestamp',
  status: 'integer',
  size: 'integer',
  body_bytes_size: 'integer',
  request_length: 'integer',
  upstream_response_length: 'integer',
  upstream_status: 'integer',
  pid: 'integer',
  tid: 'integer',
  cid: 'integer',
  request_time: 'float',
  upstream_response_time: 'float',
  excess: 'float',
};

const FORMATS: Readonly<Record<string, { regex: RustRegex; timestampFormat: string }>> = {
  combined: { regex: NGINX_COMBINED_LOG, timestampFormat: DEFAULT_ACCESS_TIMESTAMP_FORMAT },
  main: { regex: NGINX_MAIN_LOG, timestampFormat: DEFAULT_ACCESS_TIMESTAMP_FORMAT },
  ingress_upstreaminfo: { regex: NGINX_INGRESS_UPSTREAMINFO_LOG, timestampFormat: DEFAULT_ACCESS_TIMESTAMP_FORMAT },
  error: { regex: NGINX_ERROR_LOG, timestampFormat: '%Y/%m/%d %H:%M:%S' },
};

export const parse_websrv2_log: JsFunction = ([value, format, timestampFormat], context) => {
  const name = stringArg(format!);
  const spec = FORMATS[name];
  if (!spec) throw new Error(`invalid format: ${name}`);
  const tsFormat =
    timestampFormat === null || timestampFormat === undefined ? spec.timestampFormat : stringArg(timestampFormat);
  return parseLogLine(stringArg(value!), [spec.regex], TYPES, name, tsFormat, context);
};
