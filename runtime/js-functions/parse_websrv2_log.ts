// parse_websrv2_log (parse_nginx_log)(value, format, timestamp_format): Nginx's combined, main,
// ingress_upstreaminfo and error formats with VRL's regexes. The error format's own time layout is the default
// there.

import type { JsFunction } from '../imports.js';
import { stringArg } from './support/args.js';
import { NGINX_LOG_FORMATS } from '../../abi/access-log.js';
import { parseLogLine } from './support/log-fields.js';

export const parse_websrv2_log: JsFunction = ([value, format, timestampFormat], context) => {
  const name = stringArg(format!);
  const spec = NGINX_LOG_FORMATS[name];
  if (!spec) throw new Error(`invalid format: ${name}`);
  return parseLogLine(
    stringArg(value!),
    spec,
    timestampFormat == null ? undefined : stringArg(timestampFormat),
    context,
  );
};
