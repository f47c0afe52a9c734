import { defineFunction } from './define.js';
import { K, exactObject, union, type Kind } from '../types/kind.js';
import { constantString } from './support/rules.js';
import {
  STRING_OR_NULL,
  INTEGER_OR_NULL,
  TIMESTAMP_OR_NULL,
  COMMON_LOG_FIELDS,
  COMMON_LOG,
} from './support/result-kinds.js';

const ERROR_LOG = exactObject({
  client: STRING_OR_NULL,
  message: STRING_OR_NULL,
  module: STRING_OR_NULL,
  pid: INTEGER_OR_NULL,
  port: INTEGER_OR_NULL,
  severity: STRING_OR_NULL,
  thread: STRING_OR_NULL,
  timestamp: TIMESTAMP_OR_NULL,
});

const COMBINED_LOG = exactObject({ ...COMMON_LOG_FIELDS, agent: STRING_OR_NULL, referrer: STRING_OR_NULL });

const BY_FORMAT: Readonly<Record<string, Kind>> = { common: COMMON_LOG, combined: COMBINED_LOG, error: ERROR_LOG };

export default defineFunction({
  name: 'parse_websrv1_log',
  aliases: ['parse_apache_log'],
  category: 'Parse',
  description:
    "Parses a line of the first web server family's logs: the `common` or `combined` access formats or the `error` log format. Fields given as `-` are left out.",
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'format', kinds: K.Bytes, required: true, enum: ['combined', 'common', 'error'] },
    { name: 'timestamp_format', kinds: K.Bytes, required: false, default: '%d/%b/%Y:%T %z' },
  ],
  fallible: true,
  backing: { kind: 'js', library: 'RegExp' },
  returns: (call) => BY_FORMAT[constantString(call.args.format) ?? ''] ?? union(COMMON_LOG, COMBINED_LOG, ERROR_LOG),
  examples: [
    {
      title: 'Parse using Apache log format (common)',
      source:
        'parse_apache_log!(s\'127.0.0.1 bob frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326\', format: "common")',
      returns:
        '{ "host": "127.0.0.1", "identity": "bob", "message": "GET /apache_pb.gif HTTP/1.0", "method": "GET", "path": "/apache_pb.gif", "protocol": "HTTP/1.0", "size": 2326, "status": 200, "timestamp": "2000-10-10T20:55:36Z", "user": "frank" }',
    },
    {
      title: 'Parse using Apache log format (combined)',
      source: `parse_apache_log!(
    s'127.0.0.1 bob frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.seniorinfomediaries.com/vertical/channels/front-end/bandwidth" "Mozilla/5.0 (X11; Linux i686; rv:5.0) Gecko/1945-10-12 Firefox/37.0"',
    "combined",
)
`,
      returns:
        '{ "agent": "Mozilla/5.0 (X11; Linux i686; rv:5.0) Gecko/1945-10-12 Firefox/37.0", "host": "127.0.0.1", "identity": "bob", "message": "GET /apache_pb.gif HTTP/1.0", "method": "GET", "path": "/apache_pb.gif", "protocol": "HTTP/1.0", "referrer": "http://www.seniorinfomediaries.com/vertical/channels/front-end/bandwidth", "size": 2326, "status": 200, "timestamp": "2000-10-10T20:55:36Z", "user": "frank" }',
    },
    {
      title: 'Parse using Apache log format (error)',
      source: `parse_apache_log!(
    s'[01/Mar/2021:12:00:19 +0000] [ab:alert] [pid 4803:tid 3814] [client 147.159.108.175:24259] I will bypass the haptic COM bandwidth, that should matrix the CSS driver!',
    "error"
)
`,
      returns:
        '{ "client": "147.159.108.175", "message": "I will bypass the haptic COM bandwidth, that should matrix the CSS driver!", "module": "ab", "pid": 4803, "port": 24259, "severity": "alert", "thread": "3814", "timestamp": "2021-03-01T12:00:19Z" }',
    },
  ],
});
