// The standard remap benchmark programs S1–S5 (../shared/DESIGN.md §8): for each, the remap source, a
// seeded event generator (~150–300 byte events), what a Node user would hand-write instead, and the jq
// filter where jq can express the program.

import { seededRandom } from '../dist/host/components/sources/demo_logs.js';

/** The seeded generator demo_logs uses (mulberry32), so every run measures the same events. */
export const random = seededRandom;

const pick = (rnd, items) => items[Math.floor(rnd() * items.length)];
const STATUSES = [200, 201, 204, 301, 304, 400, 404, 500, 503];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
const PATHS = ['/api/v1/users', '/api/v1/orders/42', '/static/app.js', '/login', '/health', '/search?q=remap'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n, w = 2) => String(n).padStart(w, '0');

function clf(i) {
  const day = 1 + (i % 28);
  const month = MONTHS[i % 12];
  return `${pad(day)}/${month}/2024:${pad(i % 24)}:${pad(i % 60)}:${pad((i * 7) % 60)} +0000`;
}

export const PROGRAMS = {
  S1: {
    title: 'fields: set, delete, if/else on an integer status, upcase',
    source: `.env = "prod"
del(.debug)
if (to_int(.status) ?? 0) >= 500 { .level = "error" } else { .level = "info" }
.host = upcase!(.host)
`,
    event(rnd, i) {
      return {
        message: `request ${i} ${pick(rnd, METHODS)} ${pick(rnd, PATHS)} took ${Math.floor(rnd() * 900)}ms from 10.0.${i % 256}.${(i * 7) % 256}`,
        host: `web-${i % 7}.eu-west-1.example.com`,
        status: pick(rnd, STATUSES),
        debug: 'x'.repeat(i % 5),
        duration: String(Math.floor(rnd() * 1000)),
        service: pick(rnd, ['checkout', 'search', 'auth', 'catalog']),
      };
    },
    hand(e) {
      e.env = 'prod';
      delete e.debug;
      e.level = (Number.isInteger(e.status) ? e.status : 0) >= 500 ? 'error' : 'info';
      e.host = e.host.toUpperCase();
      return e;
    },
    jq: '.env = "prod" | del(.debug) | .level = (if ((.status | numbers) // 0) >= 500 then "error" else "info" end) | .host |= ascii_upcase',
  },
  S2: {
    title: 'JSON: parse_json of .message, copy two nested fields up, delete .message',
    source: `payload = parse_json!(.message)
.user = payload.user.name
.action = payload.request.action
del(.message)
`,
    event(rnd, i) {
      return {
        message: JSON.stringify({
          user: { id: i, name: `user${i % 1000}`, roles: ['reader'] },
          request: {
            action: pick(rnd, ['view', 'edit', 'delete']),
            path: pick(rnd, PATHS),
            ms: Math.floor(rnd() * 500),
          },
        }),
        source: 'app',
        seq: i,
      };
    },
    hand(e) {
      const payload = JSON.parse(e.message);
      e.user = payload?.user?.name ?? null;
      e.action = payload?.request?.action ?? null;
      delete e.message;
      return e;
    },
    jq: '(.message | fromjson) as $p | .user = $p.user.name | .action = $p.request.action | del(.message)',
  },
  S3: {
    title: 'syslog: . |= parse_syslog!(.message)',
    source: `. |= parse_syslog!(.message)
`,
    event(rnd, i) {
      return {
        message: `<${8 + (i % 120)}>1 2024-03-13T20:45:${pad(i % 60)}.${pad(i % 1000, 3)}Z host${i % 10}.example.com ${pick(rnd, ['nginx', 'sshd', 'app'])} ${2000 + (i % 500)} ID${i % 97} - request ${i} took ${Math.floor(rnd() * 900)}ms`,
        source_type: 'syslog',
      };
    },
    hand(e) {
      const m = /^<(\d+)>(\d+) (\S+) (\S+) (\S+) (\S+) (\S+) (?:-|\[.*?\]) ?(.*)$/.exec(e.message);
      if (!m) return e;
      const pri = Number(m[1]);
      delete e.message;
      return Object.assign(e, {
        appname: m[5],
        facility: SYSLOG_FACILITIES[pri >> 3],
        hostname: m[4],
        message: m[8],
        msgid: m[7],
        procid: Number(m[6]),
        severity: SYSLOG_SEVERITIES[pri & 7],
        timestamp: new Date(m[3]).toISOString(),
        version: Number(m[2]),
      });
    },
  },
  S4: {
    title: 'regex: parse_regex! of an access-log line with 6 named groups, to_int on two of them',
    source: `. |= parse_regex!(.message, r'^(?P<client>\\S+) \\S+ \\S+ \\[(?P<time>[^\\]]+)\\] "(?P<method>\\S+) (?P<path>\\S+) [^"]*" (?P<status>\\d+) (?P<size>\\d+)$')
.status = to_int!(.status)
.size = to_int!(.size)
`,
    event(rnd, i) {
      return {
        message: `10.${i % 256}.${(i * 3) % 256}.${(i * 7) % 256} - - [${clf(i)}] "${pick(rnd, METHODS)} ${pick(rnd, PATHS)} HTTP/1.1" ${pick(rnd, STATUSES)} ${Math.floor(rnd() * 50000)}`,
        source_type: 'file',
        file: '/var/log/nginx/access.log',
      };
    },
    hand(e) {
      const m =
        /^(?<client>\S+) \S+ \S+ \[(?<time>[^\]]+)\] "(?<method>\S+) (?<path>\S+) [^"]*" (?<status>\d+) (?<size>\d+)$/.exec(
          e.message,
        );
      if (!m) return e;
      Object.assign(e, m.groups);
      e.status = parseInt(e.status, 10);
      e.size = parseInt(e.size, 10);
      return e;
    },
    jq: '. + (.message | capture("^(?<client>\\\\S+) \\\\S+ \\\\S+ \\\\[(?<time>[^\\\\]]+)\\\\] \\"(?<method>\\\\S+) (?<path>\\\\S+) [^\\"]*\\" (?<status>\\\\d+) (?<size>\\\\d+)$")) | .status |= tonumber | .size |= tonumber',
  },
  S5: {
    title: 'key-value: parse_key_value!, to_int, parse_timestamp + format_timestamp',
    source: `. |= parse_key_value!(.message)
.bytes = to_int!(.bytes)
.status = to_int!(.status)
.time = format_timestamp!(parse_timestamp!(.time, "%d/%b/%Y:%H:%M:%S %z"), "%Y-%m-%dT%H:%M:%S%.3fZ")
`,
    event(rnd, i) {
      return {
        message: `time="${clf(i)}" level=${pick(rnd, ['info', 'warn', 'error'])} method=${pick(rnd, METHODS)} path=${pick(rnd, PATHS)} status=${pick(rnd, STATUSES)} bytes=${Math.floor(rnd() * 50000)} user=u${i % 1000}`,
        source_type: 'app',
      };
    },
    hand(e) {
      for (const m of e.message.matchAll(/(\w+)=(?:"([^"]*)"|(\S+))/g)) e[m[1]] = m[2] ?? m[3];
      e.bytes = parseInt(e.bytes, 10);
      e.status = parseInt(e.status, 10);
      const t = /^(\d\d)\/(\w{3})\/(\d{4}):(\d\d):(\d\d):(\d\d) ([+-]\d\d)(\d\d)$/.exec(e.time);
      const ms =
        Date.UTC(+t[3], MONTHS.indexOf(t[2]), +t[1], +t[4], +t[5], +t[6]) -
        (Number(t[7]) * 60 + Math.sign(Number(t[7])) * Number(t[8])) * 60000;
      e.time = new Date(ms).toISOString();
      return e;
    },
  },
};

const SYSLOG_FACILITIES = [
  'kern',
  'user',
  'mail',
  'daemon',
  'auth',
  'syslog',
  'lpr',
  'news',
  'uucp',
  'cron',
  'authpriv',
  'ftp',
  'ntp',
  'security',
  'console',
  'solaris-cron',
  'local0',
  'local1',
  'local2',
  'local3',
  'local4',
  'local5',
  'local6',
  'local7',
];
const SYSLOG_SEVERITIES = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'];

/** `count` events of program `name` as NDJSON text. */
export function generate(name, count, seed = 42) {
  const rnd = random(seed);
  const { event } = PROGRAMS[name];
  const lines = new Array(count);
  for (let i = 0; i < count; i++) lines[i] = JSON.stringify(event(rnd, i));
  return lines.join('\n') + '\n';
}
