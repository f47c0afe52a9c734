import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { COMMON_LOG } from './support/result-kinds.js';

export default defineFunction({
  name: 'parse_common_log',
  category: 'Parse',
  description:
    'Parses an access log line in the Common Log Format; `timestamp_format` says how to read its time. Fields given as `-` are left out.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'timestamp_format', kinds: K.Bytes, required: false, default: '%d/%b/%Y:%T %z' },
  ],
  fallible: true,
  backing: { kind: 'js', library: 'RegExp' },
  returns: COMMON_LOG,
  examples: [
    {
      title: 'Parse using Common Log Format (with default timestamp format)',
      source:
        'parse_common_log!(s\'127.0.0.1 bob frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326\')',
      returns:
        '{ "host": "127.0.0.1", "identity": "bob", "message": "GET /apache_pb.gif HTTP/1.0", "method": "GET", "path": "/apache_pb.gif", "protocol": "HTTP/1.0", "size": 2326, "status": 200, "timestamp": "2000-10-10T20:55:36Z", "user": "frank" }',
    },
    {
      title: 'Parse using Common Log Format (with custom timestamp format)',
      source: `parse_common_log!(
    s'127.0.0.1 bob frank [2000-10-10T20:55:36Z] "GET /apache_pb.gif HTTP/1.0" 200 2326',
    "%+"
)
`,
      returns:
        '{ "host": "127.0.0.1", "identity": "bob", "message": "GET /apache_pb.gif HTTP/1.0", "method": "GET", "path": "/apache_pb.gif", "protocol": "HTTP/1.0", "size": 2326, "status": 200, "timestamp": "2000-10-10T20:55:36Z", "user": "frank" }',
    },
  ],
});
