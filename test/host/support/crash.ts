// Crash runs for end-to-end acknowledgements: svc is killed with SIGKILL at random moments and restarted
// while a receiver behind its http sink answers 503 or drops connections at random. What reached the
// receiver is then counted against what was sent: lost (never received) and duplicated lines. Used small by
// test/host/crash.test.ts, large by scripts/crash-test.mjs.

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { freePort, startSvc, tempDir, waitFor, type SvcRun } from './svc.js';

export interface CrashOptions {
  /** Lines written (file source) or events posted (http_server source). */
  lines: number;
  /** SIGKILLs, each once the receiver got a random number of new lines since the last one. */
  kills: number;
  /** Chance that the receiver answers a request 503, and that it drops one unanswered. */
  failureRate: number;
  /** A random source in [0, 1) (seeded by callers that want a repeatable run). */
  random?: () => number;
  /** `acknowledgements.enabled` (true unless false: false shows what is lost without them). */
  acknowledgements?: boolean;
  /** The http sink's buffer on disk (`buffer.type: disk`) instead of in memory. */
  diskBuffer?: boolean;
  /** Progress lines (kills, restarts). */
  log?: (line: string) => void;
}

export interface CrashOutcome {
  /** Lines (events) sent, and those of them the receiver never got. */
  sent: number;
  lost: number[];
  /** Receptions beyond the first, over all lines. */
  duplicated: number;
  kills: number;
  /** http_server: lines of requests answered 200 that the receiver never got. */
  lostAfter200: number[];
  /** http_server: requests not answered 200 by the deadline (their lines count as lost, not as broken). */
  unanswered: number;
  /** The run ended at its deadline with lines still missing: they may be late rather than lost (say so when
   * asserting). */
  deadlinePassed: boolean;
}

/** The receiver: counts each `line-<n>` of request bodies, failing requests at random. */
class Receiver {
  readonly received = new Map<number, number>();
  private readonly server: Server;

  constructor(failureRate: number, random: () => number) {
    this.server = createServer((request, response) => {
      const roll = random();
      if (roll < failureRate) {
        request.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (roll < 2 * failureRate) {
          response.writeHead(503).end();
          return;
        }
        for (const match of Buffer.concat(chunks)
          .toString('utf8')
          .matchAll(/line-(\d+)/g)) {
          const n = Number(match[1]);
          this.received.set(n, (this.received.get(n) ?? 0) + 1);
        }
        response.writeHead(200).end();
      });
    });
  }

  async listen(): Promise<number> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as AddressInfo).port;
  }

  /** Receptions so far, duplicates included. */
  get total(): number {
    let total = 0;
    for (const count of this.received.values()) total += count;
    return total;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function httpSink(input: string, port: number, diskBuffer = false): string {
  return `
  out:
    type: http
    inputs: [${input}]
    uri: http://127.0.0.1:${port}/
    encoding: { codec: text }
    framing: { method: newline_delimited }
    batch: { max_events: 100, timeout_secs: 0.1 }
    request: { concurrency: 4, retry_initial_backoff_secs: 1, retry_max_duration_secs: 1, timeout_secs: 5 }
${diskBuffer ? '    buffer: { type: disk, max_size: 268435488 }\n' : ''}`;
}

/** Starts svc and kills it `kills` times, each once the receiver got between 1 and `spread` more lines. */
async function killRepeatedly(
  start: () => SvcRun,
  receiver: Receiver,
  options: CrashOptions,
  spread: number,
): Promise<SvcRun> {
  const random = options.random ?? Math.random;
  let svc = start();
  for (let kill = 1; kill <= options.kills; kill++) {
    const target = receiver.total + 1 + Math.floor(random() * spread);
    await waitFor(
      () => receiver.total >= target || svc.child.exitCode !== null,
      () =>
        `the receiver to reach ${target} lines before kill ${kill} (has ${receiver.total}); stderr: ${svc.stderr()}`,
      120_000,
    );
    if (svc.child.exitCode !== null) throw new Error(`svc exited (${svc.child.exitCode}): ${svc.stderr()}`);
    svc.child.kill('SIGKILL');
    await svc.exited;
    options.log?.(`kill ${kill}: receiver had ${receiver.total} lines (${receiver.received.size} distinct)`);
    svc = start();
  }
  return svc;
}

function outcome(
  sent: number,
  receiver: Receiver,
  kills: number,
  deadlinePassed: boolean,
  lostAfter200: number[] = [],
  unanswered = 0,
): CrashOutcome {
  const lost: number[] = [];
  let duplicated = 0;
  for (let n = 0; n < sent; n++) {
    const count = receiver.received.get(n) ?? 0;
    if (count === 0) lost.push(n);
    else duplicated += count - 1;
  }
  return { sent, lost, duplicated, kills, lostAfter200, unanswered, deadlinePassed };
}

/** File source → remap → http sink with acknowledgements; a writer appends lines throughout. At the end svc
 * runs until the receiver has every line (or the deadline passes: the missing ones are lost). */
export async function fileSourceCrashRun(options: CrashOptions): Promise<CrashOutcome> {
  const dir = tempDir();
  const receiver = new Receiver(options.failureRate, options.random ?? Math.random);
  const port = await receiver.listen();
  const logFile = join(dir, 'app.log');
  writeFileSync(logFile, '');
  writeFileSync(
    join(dir, 'svc.yaml'),
    `
data_dir: ${join(dir, 'data')}
acknowledgements: { enabled: ${options.acknowledgements !== false} }
sources:
  in: { type: file, include: ['${logFile}'], glob_minimum_cooldown_ms: 100 }
transforms:
  mark: { type: remap, inputs: [in], source: '.marked = true' }
sinks:${httpSink('mark', port, options.diskBuffer)}`,
  );
  mkdirSync(join(dir, 'data'));
  // The writer appends a few lines at a time, all through the kills.
  let written = 0;
  const perTick = Math.max(1, Math.ceil(options.lines / 300));
  const writer = setInterval(() => {
    const count = Math.min(perTick, options.lines - written);
    let text = '';
    for (let i = 0; i < count; i++) text += `line-${written + i}\n`;
    appendFileSync(logFile, text);
    written += count;
    if (written === options.lines) clearInterval(writer);
  }, 10);
  const start = () => startSvc(['--config', join(dir, 'svc.yaml')]);
  let svc: SvcRun | undefined;
  try {
    svc = await killRepeatedly(start, receiver, options, Math.max(1, Math.floor(options.lines / (options.kills + 1))));
    const deadlinePassed = await waitFor(
      () => written === options.lines && receiver.received.size === options.lines,
      () => `every line at the receiver (${receiver.received.size} of ${options.lines}); stderr: ${svc!.stderr()}`,
      120_000,
    ).then(
      () => false,
      () => true,
    );
    return outcome(options.lines, receiver, options.kills, deadlinePassed);
  } finally {
    clearInterval(writer);
    svc?.child.kill('SIGKILL');
    await svc?.exited;
    await receiver.close();
  }
}

/** http_server (acknowledgements) → http sink: clients post one line per request, each until it is answered
 * 200, while svc is killed. Every request answered 200 must have reached the receiver. */
export async function httpServerCrashRun(options: CrashOptions): Promise<CrashOutcome> {
  const dir = tempDir();
  const receiver = new Receiver(options.failureRate, options.random ?? Math.random);
  const port = await receiver.listen();
  const listen = await freePort();
  writeFileSync(
    join(dir, 'svc.yaml'),
    `
data_dir: ${join(dir, 'data')}
acknowledgements: { enabled: ${options.acknowledgements !== false} }
sources:
  in: { type: http_server, address: '127.0.0.1:${listen}' }
sinks:${httpSink('in', port, options.diskBuffer)}`,
  );
  const answered200: number[] = [];
  const clients = 32;
  let next = 0;
  let done = false;
  const post = async () => {
    while (!done && next < options.lines) {
      const n = next++;
      for (;;) {
        const status = await fetch(`http://127.0.0.1:${listen}/`, { method: 'POST', body: `line-${n}\n` })
          .then((response) => response.status)
          .catch(() => 0);
        if (status === 200) {
          answered200.push(n);
          break;
        }
        if (done) return;
        // svc is down or restarting: try again shortly.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const posting = Promise.all(Array.from({ length: clients }, post));
  const start = () => startSvc(['--config', join(dir, 'svc.yaml')]);
  let svc: SvcRun | undefined;
  try {
    svc = await killRepeatedly(start, receiver, options, Math.max(1, Math.floor(options.lines / (options.kills + 1))));
    const deadlinePassed = await waitFor(
      () => answered200.length === options.lines,
      () => `every request answered 200 (${answered200.length} of ${options.lines}); stderr: ${svc!.stderr()}`,
      120_000,
    ).then(
      () => false,
      () => true,
    );
    done = true;
    await posting;
    // Behind a disk buffer, 200 means stored on disk: the sink delivers from there afterwards.
    const undelivered = await waitFor(
      () => answered200.every((n) => receiver.received.has(n)),
      () => 'every event answered 200 delivered',
      60_000,
    ).then(
      () => false,
      () => true,
    );
    const lostAfter200 = answered200.filter((n) => !receiver.received.has(n));
    return outcome(
      options.lines,
      receiver,
      options.kills,
      deadlinePassed || undelivered,
      lostAfter200,
      options.lines - answered200.length,
    );
  } finally {
    done = true;
    svc?.child.kill('SIGKILL');
    await svc?.exited;
    await receiver.close();
  }
}
