import { defineFunction } from './define.js';
import { K, BYTES, INTEGER, FLOAT, TIMESTAMP, NULL, UNDEFINED, exactObject, union, type Kind } from '../types/kind.js';
import { constantString } from './support/rules.js';
import { STRING_OR_NULL } from './support/result-kinds.js';

const OPTIONAL_STRING = union(BYTES, UNDEFINED);

const MAIN_FIELDS: Readonly<Record<string, Kind>> = {
  body_bytes_size: INTEGER,
  http_referer: OPTIONAL_STRING,
  http_user_agent: OPTIONAL_STRING,
  remote_addr: OPTIONAL_STRING,
  remote_user: OPTIONAL_STRING,
  request: BYTES,
  status: INTEGER,
  timestamp: TIMESTAMP,
};

const BY_FORMAT: Readonly<Record<string, Kind>> = {
  combined: exactObject({
    agent: STRING_OR_NULL,
    client: BYTES,
    compression: STRING_OR_NULL,
    referer: STRING_OR_NULL,
    request: BYTES,
    size: INTEGER,
    status: INTEGER,
    timestamp: TIMESTAMP,
    user: STRING_OR_NULL,
  }),
  main: exactObject({ ...MAIN_FIELDS, http_x_forwarded_for: OPTIONAL_STRING }),
  ingress_upstreaminfo: exactObject({
    ...MAIN_FIELDS,
    proxy_alternative_upstream_name: OPTIONAL_STRING,
    proxy_upstream_name: BYTES,
    req_id: BYTES,
    request_length: INTEGER,
    request_time: FLOAT,
    upstream_addr: BYTES,
    upstream_response_length: INTEGER,
    upstream_response_time: FLOAT,
    upstream_status: INTEGER,
  }),
  error: exactObject({
    cid: INTEGER,
    client: STRING_OR_NULL,
    excess: union(FLOAT, NULL),
    host: STRING_OR_NULL,
    message: BYTES,
    pid: INTEGER,
    port: STRING_OR_NULL,
    request: STRING_OR_NULL,
    server: STRING_OR_NULL,
    severity: BYTES,
    tid: INTEGER,
    timestamp: TIMESTAMP,
    upstream: STRING_OR_NULL,
    zone: STRING_OR_NULL,
  }),
};

export default defineFunction({
  name: 'parse_websrv2_log',
  aliases: ['parse_nginx_log'],
  category: 'Parse',
  description:
    "Parses a line of the second web server family's logs in one of its formats: `combined`, `main`, `ingress_upstreaminfo` (as written by its ingress controller) or `error`.",
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'format', kinds: K.Bytes, required: true, enum: ['combined', 'error', 'ingress_upstreaminfo', 'main'] },
    { name: 'timestamp_format', kinds: K.Bytes, required: false, default: '%d/%b/%Y:%T %z' },
  ],
  fallible: true,
  backing: { kind: 'js', library: 'RegExp' },
  returns: (call) => BY_FORMAT[constantString(call.args.format) ?? ''] ?? union(...Object.values(BY_FORMAT)),
  examples: [
    {
      title: 'Parse via Nginx log format (combined)',
      source: `parse_nginx_log!(
    s'172.17.0.1 - alice [01/Apr/2021:12:02:31 +0000] "POST /not-found HTTP/1.1" 404 153 "http://localhost/somewhere" "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/72.0.3626.119 Safari/537.36" "2.75"',
    "combined",
)
`,
      returns:
        '{ "agent": "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/72.0.3626.119 Safari/537.36", "client": "172.17.0.1", "compression": "2.75", "referer": "http://localhost/somewhere", "request": "POST /not-found HTTP/1.1", "size": 153, "status": 404, "timestamp": "2021-04-01T12:02:31Z", "user": "alice" }',
    },
    {
      title: 'Parse via Nginx log format (error)',
      source: `parse_nginx_log!(
    s'2021/04/01 13:02:31 [error] 31#31: *1 open() "/usr/share/nginx/html/not-found" failed (2: No such file or directory), client: 172.17.0.1, server: localhost, request: "POST /not-found HTTP/1.1", host: "localhost:8081"',
    "error"
)
`,
      returns:
        '{ "cid": 1, "client": "172.17.0.1", "host": "localhost:8081", "message": "open() \\"/usr/share/nginx/html/not-found\\" failed (2: No such file or directory)", "pid": 31, "request": "POST /not-found HTTP/1.1", "server": "localhost", "severity": "error", "tid": 31, "timestamp": "2021-04-01T13:02:31Z" }',
    },
    {
      title: 'Parse via Nginx log format (ingress_upstreaminfo)',
      source: `parse_nginx_log!(
    s'0.0.0.0 - bob [18/Mar/2023:15:00:00 +0000] "GET /some/path HTTP/2.0" 200 12312 "https://10.0.0.1/some/referer" "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/111.0.0.0 Safari/537.36" 462 0.050 [some-upstream-service-9000] [some-other-upstream-5000] 10.0.50.80:9000 19437 0.049 200 752178adb17130b291aefd8c386279e7',
    "ingress_upstreaminfo"
)
`,
      returns:
        '{ "body_bytes_size": 12312, "http_referer": "https://10.0.0.1/some/referer", "http_user_agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/111.0.0.0 Safari/537.36", "proxy_alternative_upstream_name": "some-other-upstream-5000", "proxy_upstream_name": "some-upstream-service-9000", "remote_addr": "0.0.0.0", "remote_user": "bob", "req_id": "752178adb17130b291aefd8c386279e7", "request": "GET /some/path HTTP/2.0", "request_length": 462, "request_time": 0.05, "status": 200, "timestamp": "2023-03-18T15:00:00Z", "upstream_addr": "10.0.50.80:9000", "upstream_response_length": 19437, "upstream_response_time": 0.049, "upstream_status": 200 }',
    },
    {
      title: 'Parse via Nginx log format (main)',
      source: `parse_nginx_log!(
    s'172.24.0.3 - alice [31/Dec/2024:17:32:06 +0000] "GET / HTTP/1.1" 200 615 "https://domain.tld/path" "curl/8.11.1" "1.2.3.4, 10.10.1.1"',
    "main"
)
`,
      returns:
        '{ "body_bytes_size": 615, "http_referer": "https://domain.tld/path", "http_user_agent": "curl/8.11.1", "http_x_forwarded_for": "1.2.3.4, 10.10.1.1", "remote_addr": "172.24.0.3", "remote_user": "alice", "request": "GET / HTTP/1.1", "status": 200, "timestamp": "2024-12-31T17:32:06Z" }',
    },
  ],
});
