// `demo_logs`: fake but plausible log lines in the shapes of Vector's generator (its `fakedata` crate), one
// line every `interval` seconds, or batches of `env.chunkSize` lines as fast as the pipeline accepts them
// when `interval` is 0. Each line is a message of its own for the decoder (default framing `bytes`).

import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { SourceDefinition } from '../component.js';
import {
  BYTES_FRAMING,
  decodedKinds,
  decodeSettings,
  decodingSchema,
  framingSchema,
  SourceDecoder,
  sourceStamp,
} from '../support/decoding.js';

const options = z
  .strictObject({
    format: z.enum(['shuffle', 'apache_common', 'apache_error', 'syslog', 'bsd_syslog', 'json']),
    lines: z.array(z.string()).min(1).optional(),
    sequence: z.boolean().default(false),
    interval: z.number().nonnegative().default(1.0),
    // Absent, the source runs until stopped (Vector's default is usize::MAX, which exceeds a JS number's
    // integers: a count past them is taken as that unbounded one).
    count: z
      .preprocess(
        (value) => (typeof value === 'number' && value > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : value),
        z.number().int().nonnegative(),
      )
      .optional(),
    decoding: decodingSchema,
    framing: framingSchema,
  })
  .refine((o) => o.format !== 'shuffle' || o.lines !== undefined, {
    message: 'format "shuffle" needs `lines`',
    path: ['lines'],
  });
type DemoLogsOptions = z.infer<typeof options>;

// ---- fake data ----------------------------------------------------------------------------------------

const USERNAMES = [
  'ahmadajmi',
  'b0rnbr0ken',
  'benefritz',
  'BryanHorsey',
  'devankoshal',
  'meln1ks',
  'KarimMove',
  'jesseddy',
  'Karimmove',
  'shaneIxD',
  'youbet',
  'ahmadajmi',
  'jessicamcl',
  'CrucifiX',
  'BryanHorsey',
];
const DOMAINS = [
  'some',
  'random',
  'names',
  'make',
  'up',
  'for',
  'fake',
  'domains',
  'we',
  'need',
  'more',
  'up',
  'names',
  'test',
  'wiki',
  'lol',
];
const TLDS = ['com', 'net', 'org', 'de', 'us', 'io', 'we', 'make', 'pw', 'cc'];
const APPS = [
  'authsvc',
  'ahmadajmi',
  'benefritz',
  'devankoshal',
  'meln1ks',
  'shaneIxD',
  'jesseddy',
  'cutter',
  'cruz',
  'launchd',
  'su',
  'sshd',
  'cron',
  'kernel',
];
const HTTP_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTION', 'PATCH', 'POST', 'PUT'];
const HTTP_VERSIONS = ['HTTP/1.0', 'HTTP/1.1', 'HTTP/2.0'];
const HTTP_CODES = [200, 300, 301, 302, 304, 307, 400, 401, 403, 404, 410, 500, 501, 502, 503];
const ENDPOINT_WORDS = [
  'wp-admin',
  'apps',
  'cart',
  'user',
  'booper',
  'bot',
  'do-not-access',
  'needs-more',
  'secret-info',
  'controller',
  'observability',
  'metrics',
  'deploy',
  'wiki',
  'login',
  'search',
];
const ERROR_LEVELS = ['alert', 'crit', 'debug', 'emerg', 'error', 'info', 'notice', 'trace1-8', 'warn'];
const ERROR_MODULES = ['core', 'proxy', 'ssl', 'authz_core', 'mpm_event', 'rewrite', 'php7'];
const ERROR_MESSAGES = [
  "There's a breach in the warp core, captain",
  "Great Scott! We're never gonna reach 88 mph with the flux capacitor in its current state!",
  "You're not gonna believe what just happened",
  '#hugops to everyone who has to deal with this',
  'Take a breath, let it go, walk away',
  "A bug was encountered but not in Vector, which doesn't have bugs",
  "We're gonna need a bigger boat",
  "Maybe we just shouldn't use computers",
  "That's still a lot of errors",
  'Pretty pretty pretty good',
  "I'm sorry, Dave. I'm afraid I can't do that",
  'Something bad happened',
  'Our competitor is pretty cool',
  'There are 10 kinds of people in this world',
  "Hello world, we're here",
];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Random numbers in [0, 1). */
export type Random = () => number;

/** A small seeded generator (mulberry32), for reproducible lines in tests. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

class Fake {
  constructor(
    private readonly random: Random,
    private readonly now: Date,
  ) {}

  int(from: number, to: number): number {
    return from + Math.floor(this.random() * (to - from + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)]!;
  }
  ipv4 = () => `${this.int(1, 255)}.${this.int(0, 255)}.${this.int(0, 255)}.${this.int(0, 255)}`;
  username = () => this.pick(USERNAMES);
  domain = () => `${this.pick(DOMAINS)}.${this.pick(TLDS)}`;
  endpoint = () => `/${Array.from({ length: this.int(1, 3) }, () => this.pick(ENDPOINT_WORDS)).join('/')}`;
  method = () => this.pick(HTTP_METHODS);
  version = () => this.pick(HTTP_VERSIONS);
  code = () => this.pick(HTTP_CODES);
  bytes = () => this.int(1000, 50000);
  message = () => this.pick(ERROR_MESSAGES);
  priority = () => this.int(0, 191);
  pid = () => this.int(1, 9999);

  // Times in UTC, in each format's own notation.
  private get t() {
    const d = this.now;
    return {
      Y: d.getUTCFullYear(),
      m: d.getUTCMonth(),
      d: pad(d.getUTCDate()),
      T: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
    };
  }
  /** `%d/%b/%Y:%T` */
  apacheTime = () => `${this.t.d}/${MONTHS[this.t.m]}/${this.t.Y}:${this.t.T}`;
  /** `%a %b %d %T %Y` */
  apacheErrorTime = () => `${DAYS[this.now.getUTCDay()]} ${MONTHS[this.t.m]} ${this.t.d} ${this.t.T} ${this.t.Y}`;
  /** `%b %d %T` */
  bsdTime = () => `${MONTHS[this.t.m]} ${this.t.d} ${this.t.T}`;
  /** `%Y-%m-%dT%H:%M:%S%.3fZ` */
  rfc3339 = () => this.now.toISOString();
}

/** The `n`th line (from 0) of `format`, stamped `now`. */
function demoLine(
  options: Pick<DemoLogsOptions, 'format' | 'lines' | 'sequence'>,
  n: number,
  random: Random,
  now: Date,
): string {
  const f = new Fake(random, now);
  switch (options.format) {
    case 'shuffle': {
      const line = f.pick(options.lines!);
      return options.sequence ? `${n} ${line}` : line;
    }
    case 'apache_common':
      return `${f.ipv4()} - ${f.username()} [${f.apacheTime()} +0000] "${f.method()} ${f.endpoint()} ${f.version()}" ${f.code()} ${f.bytes()}`;
    case 'apache_error':
      return `[${f.apacheErrorTime()}] [${f.pick(ERROR_MODULES)}:${f.pick(ERROR_LEVELS)}] [pid ${f.pid()}:tid ${f.int(1000, 99999)}] [client ${f.ipv4()}:${f.int(1024, 65535)}] ${f.message()}`;
    case 'syslog':
      return `<${f.priority()}>${f.int(1, 3)} ${f.rfc3339()} ${f.domain()} ${f.username()} ${f.int(100, 9999)} ID${f.int(1, 999)} - ${f.message()}`;
    case 'bsd_syslog':
      return `<${f.priority()}>${f.bsdTime()} ${f.domain()} ${f.pick(APPS)}[${f.pid()}]: ${f.message()}`;
    case 'json':
      return JSON.stringify({
        host: f.ipv4(),
        'user-identifier': f.username(),
        datetime: `${f.apacheTime()} +0000`,
        method: f.method(),
        request: f.endpoint(),
        protocol: f.version(),
        status: String(f.code()),
        bytes: f.bytes(),
        referer: `https://${f.domain()}${f.endpoint()}`,
      });
  }
}

/** The definition drawing from `random` (tests pass a seeded one). */
export function demoLogsSource(random: Random = Math.random): SourceDefinition<DemoLogsOptions> {
  return {
    kind: 'source',
    type: 'demo_logs',
    description: 'Generate fake log events, which can be useful for testing and demos.',
    options,
    outputs: (options) => [{ name: undefined, kinds: decodedKinds(options.decoding) }],
    async build(options, env) {
      const decoder = new SourceDecoder(env, decodeSettings(options.decoding, options.framing, BYTES_FRAMING, env));
      // Lines per batch: one per tick, or as many as a batch holds when there is no pause between them.
      const perBatch = options.interval > 0 ? 1 : env.chunkSize;
      return {
        async run(context) {
          const signal = context.shutdown;
          let next = performance.now();
          const count = options.count ?? Number.POSITIVE_INFINITY;
          for (let n = 0; n < count && !signal.aborted; ) {
            const now = new Date();
            // Vector's demo events say they come from `localhost` and service `vector` (here `svc`).
            const stamp = { service: 'svc', ...sourceStamp(env, 'demo_logs', undefined, 'localhost') };
            const messages = [];
            for (const end = Math.min(count, n + perBatch); n < end; n++) {
              messages.push({ bytes: Buffer.from(demoLine(options, n, random, now)), stamp });
            }
            for (const batch of decoder.decodeMessages(messages)) await context.send(batch);
            if (options.interval > 0 && n < count) {
              next += options.interval * 1000;
              await sleep(Math.max(0, next - performance.now()), undefined, { signal }).catch(() => undefined);
            }
          }
        },
      };
    },
  };
}

export default demoLogsSource();
