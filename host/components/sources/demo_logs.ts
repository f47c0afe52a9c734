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
  logNamespaceOf,
  logNamespaceOption,
  SourceDecoder,
  sourceStamp,
  stampSource,
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
    log_namespace: logNamespaceOption,
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

/** The fake values of one batch of lines: they share `now`, whose renderings are made once (a batch of
 * thousands of lines allocated each of them per line, and the main thread's heap grew with that churn). */
class Fake {
  private readonly times: Record<'apache' | 'apacheError' | 'bsd' | 'rfc3339', string>;

  constructor(
    private readonly random: Random,
    now: Date,
  ) {
    const [Y, m, d] = [now.getUTCFullYear(), MONTHS[now.getUTCMonth()], pad(now.getUTCDate())];
    const T = `${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())}`;
    // Times in UTC, in each format's own notation.
    this.times = {
      apache: `${d}/${m}/${Y}:${T}`, // %d/%b/%Y:%T
      apacheError: `${DAYS[now.getUTCDay()]} ${m} ${d} ${T} ${Y}`, // %a %b %d %T %Y
      bsd: `${m} ${d} ${T}`, // %b %d %T
      rfc3339: now.toISOString(), // %Y-%m-%dT%H:%M:%S%.3fZ
    };
  }

  int(from: number, to: number): number {
    return from + Math.floor(this.random() * (to - from + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)]!;
  }
  ipv4(): string {
    return `${this.int(1, 255)}.${this.int(0, 255)}.${this.int(0, 255)}.${this.int(0, 255)}`;
  }
  domain(): string {
    return `${this.pick(DOMAINS)}.${this.pick(TLDS)}`;
  }
  endpoint(): string {
    let path = '';
    for (let words = this.int(1, 3); words > 0; words--) path += `/${this.pick(ENDPOINT_WORDS)}`;
    return path;
  }

  /** The `n`th line (from 0) of `format`. */
  line(options: Pick<DemoLogsOptions, 'format' | 'lines' | 'sequence'>, n: number): string {
    const t = this.times;
    switch (options.format) {
      case 'shuffle': {
        const line = this.pick(options.lines!);
        return options.sequence ? `${n} ${line}` : line;
      }
      case 'apache_common':
        return `${this.ipv4()} - ${this.pick(USERNAMES)} [${t.apache} +0000] "${this.pick(HTTP_METHODS)} ${this.endpoint()} ${this.pick(HTTP_VERSIONS)}" ${this.pick(HTTP_CODES)} ${this.int(1000, 50000)}`;
      case 'apache_error':
        return `[${t.apacheError}] [${this.pick(ERROR_MODULES)}:${this.pick(ERROR_LEVELS)}] [pid ${this.int(1, 9999)}:tid ${this.int(1000, 99999)}] [client ${this.ipv4()}:${this.int(1024, 65535)}] ${this.pick(ERROR_MESSAGES)}`;
      case 'syslog':
        return `<${this.int(0, 191)}>${this.int(1, 3)} ${t.rfc3339} ${this.domain()} ${this.pick(USERNAMES)} ${this.int(100, 9999)} ID${this.int(1, 999)} - ${this.pick(ERROR_MESSAGES)}`;
      case 'bsd_syslog':
        return `<${this.int(0, 191)}>${t.bsd} ${this.domain()} ${this.pick(APPS)}[${this.int(1, 9999)}]: ${this.pick(ERROR_MESSAGES)}`;
      case 'json':
        // The words are plain ASCII (test/host/components/sources/demo_logs.test.ts checks): the text is what
        // JSON.stringify writes of the object, without building it.
        return (
          `{"host":"${this.ipv4()}","user-identifier":"${this.pick(USERNAMES)}","datetime":"${t.apache} +0000",` +
          `"method":"${this.pick(HTTP_METHODS)}","request":"${this.endpoint()}","protocol":"${this.pick(HTTP_VERSIONS)}",` +
          `"status":"${this.pick(HTTP_CODES)}","bytes":${this.int(1000, 50000)},"referer":"https://${this.domain()}${this.endpoint()}"}`
        );
    }
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
      const origin = { sourceType: 'demo_logs', logNamespace: logNamespaceOf(env, options.log_namespace) };
      const decoder = new SourceDecoder(
        env,
        decodeSettings(options.decoding, options.framing, BYTES_FRAMING, env, origin.logNamespace),
      );
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
            const stamp = stampSource(
              sourceStamp(env, origin, undefined, 'localhost'),
              origin,
              'service',
              ['service'],
              'svc',
            );
            const fake = new Fake(random, now);
            const lines: string[] = [];
            for (const end = Math.min(count, n + perBatch); n < end; n++) lines.push(fake.line(options, n));
            for (const batch of decoder.decodeTexts(lines, stamp)) await context.send(batch);
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
