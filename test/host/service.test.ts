// The service as a process: graceful shutdown (drain; second signal and time limit, which count the events
// not delivered), backpressure and
// drop_newest accounting behind a slow sink, and the same events with one or two transform threads.

import { once } from 'node:events';
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, logLines, startSvc, tempDir, waitFor } from './support/svc.js';

/**
 * A local HTTP server standing in for a slow (or stuck) destination: it counts the newline-delimited
 * events of each POST after `delayMs`, or never answers when `delayMs` is Infinity.
 */
async function slowServer(delayMs: number) {
  let events = 0;
  let requests = 0;
  const held: ServerResponse[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      requests++;
      if (delayMs === Infinity) {
        held.push(response);
        return;
      }
      await sleep(delayMs);
      if (request.method === 'POST')
        events += Buffer.concat(chunks)
          .toString('utf8')
          .split('\n')
          .filter((line) => line !== '').length;
      response.end();
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    events: () => events,
    requests: () => requests,
    close: () => {
      for (const response of held) response.destroy();
      server.close();
      server.closeAllConnections();
    },
  };
}

/** An http sink sending newline-delimited text to `port`, `maxEvents` per request. */
const httpSink = (port: number, maxEvents: number, buffer = '') => `
    type: http
    uri: http://127.0.0.1:${port}/
    encoding: { codec: text }
    framing: { method: newline_delimited }
    batch: { max_events: ${maxEvents}, timeout_secs: 0.1 }
    request: { concurrency: 1 }
    healthcheck: { enabled: false }${buffer}`;

/** A config accepting events over http_server (so the test knows when they are accepted: the 200). */
function httpIntoSlowSink(dir: string, sourcePort: number, sinkPort: number): string {
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
sources:
  in:
    type: http_server
    address: 127.0.0.1:${sourcePort}
    decoding: { codec: bytes }
    framing: { method: newline_delimited }
sinks:
  out:
    inputs: [in]${httpSink(sinkPort, 20)}
`,
  );
  return config;
}

const lines = (count: number, prefix = 'event') => Array.from({ length: count }, (_, i) => `${prefix} ${i}\n`).join('');

test('SIGTERM with events buffered behind a slow sink: every accepted event is delivered, exit 0', async () => {
  const sink = await slowServer(50);
  const sourcePort = await freePort();
  const svc = startSvc(['--config', httpIntoSlowSink(tempDir(), sourcePort, sink.port)]);
  try {
    await svc.waitForStderr(/svc has started/);
    const accepted = await fetch(`http://127.0.0.1:${sourcePort}/`, { method: 'POST', body: lines(300) });
    assert.is(accepted.status, 200);
    await waitFor(
      () => sink.requests() > 0,
      () => 'a first request at the sink',
    );
    svc.child.kill('SIGTERM');
    const { status, stderr } = await svc.exited;
    assert.is(sink.events(), 300, stderr);
    assert.match(
      logLines(stderr),
      / INFO svc: Signal received\. Shutting down\. signal=SIGTERM\n INFO svc: svc has stopped\.\n$/,
    );
    assert.is(status, 0);
  } finally {
    svc.child.kill('SIGKILL');
    sink.close();
  }
});

test('a second signal forces the exit while the drain waits on a stuck sink', async () => {
  const sink = await slowServer(Infinity);
  const sourcePort = await freePort();
  const svc = startSvc(['--config', httpIntoSlowSink(tempDir(), sourcePort, sink.port)]);
  try {
    await svc.waitForStderr(/svc has started/);
    await fetch(`http://127.0.0.1:${sourcePort}/`, { method: 'POST', body: lines(10) });
    await waitFor(
      () => sink.requests() > 0,
      () => 'a first request at the sink',
    );
    svc.child.kill('SIGINT');
    await svc.waitForStderr(/Signal received/);
    svc.child.kill('SIGINT');
    const { status, stderr } = await svc.exited;
    assert.match(
      logLines(stderr),
      /\n WARN svc: Shutting down immediately\. signal=SIGINT\nERROR svc::sinks::http: Events dropped component_kind=sink component_type=http component_id=out intentional=false count=10 reason="The shutdown was forced before they were delivered\."\n$/,
    );
    assert.is(status, 70);
  } finally {
    svc.child.kill('SIGKILL');
    sink.close();
  }
});

test('--graceful-shutdown-limit-secs 1 with a sink that never finishes: forced exit, the events not delivered counted', async () => {
  const sink = await slowServer(Infinity);
  const sourcePort = await freePort();
  const svc = startSvc([
    '--config',
    httpIntoSlowSink(tempDir(), sourcePort, sink.port),
    '--graceful-shutdown-limit-secs',
    '1',
  ]);
  try {
    await svc.waitForStderr(/svc has started/);
    // 20 in the one request in flight (never answered), 10 waiting for its slot.
    await fetch(`http://127.0.0.1:${sourcePort}/`, { method: 'POST', body: lines(30) });
    await waitFor(
      () => sink.requests() > 0,
      () => 'a first request at the sink',
    );
    svc.child.kill('SIGTERM');
    const { status, stderr } = await svc.exited;
    assert.match(
      logLines(stderr),
      /\nERROR svc: Failed to gracefully shut down in 1 s\. Killing components\.\nERROR svc::sinks::http: Events dropped component_kind=sink component_type=http component_id=out intentional=false count=30 reason="The shutdown was forced before they were delivered\."\n$/,
    );
    assert.is(status, 70);
  } finally {
    svc.child.kill('SIGKILL');
    sink.close();
  }
});

test('stdin EOF ends the process by itself, everything written, exit 0', async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
sources:
  in:
    type: stdin
sinks:
  out:
    type: file
    inputs: [in]
    path: ${dir}/out.log
    encoding: { codec: text }
`,
  );
  const { status, stderr } = await startSvc(['--config', config], { stdin: lines(1000) }).exited;
  assert.is(readFileSync(join(dir, 'out.log'), 'utf8'), lines(1000));
  assert.match(logLines(stderr), / INFO svc: svc has started\. .*\n INFO svc: svc has stopped\.\n$/);
  assert.is(status, 0);
});

/** VmRSS of a process, in bytes. */
function rss(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

test('backpressure: 50 MB on stdin behind a slow sink with when_full = block stays in bounded memory, nothing lost', async () => {
  const sink = await slowServer(5);
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
sources:
  in:
    type: stdin
sinks:
  out:
    inputs: [in]${httpSink(sink.port, 5000, '\n    buffer: { type: memory, max_events: 5000, when_full: block }')}
`,
  );
  // 500 000 lines of 100 bytes.
  const line = 'x'.repeat(99) + '\n';
  const count = 500_000;
  const svc = startSvc(['--config', config]);
  let peak = 0;
  const sampler = setInterval(() => {
    if (svc.child.exitCode === null) peak = Math.max(peak, rss(svc.child.pid!));
  }, 100);
  try {
    // Written in pieces, as the pipe drains: the svc process reads only as fast as the sink takes.
    const chunk = line.repeat(10_000);
    for (let written = 0; written < count; written += 10_000) {
      if (!svc.child.stdin!.write(chunk)) await once(svc.child.stdin!, 'drain');
    }
    svc.child.stdin!.end();
    const { status, stderr } = await svc.exited;
    clearInterval(sampler);
    assert.is(sink.events(), count, stderr);
    assert.ok(peak > 0 && peak < 300 * 1024 * 1024, `peak RSS ${Math.round(peak / 1048576)} MB`);
    assert.is(status, 0);
  } finally {
    clearInterval(sampler);
    svc.child.kill('SIGKILL');
    sink.close();
  }
});

test('drop_newest behind a slow sink: delivered + component_discarded_events_total accounts for every event', async () => {
  const sink = await slowServer(20);
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
sources:
  in:
    type: stdin
  metrics:
    type: internal_metrics
    scrape_interval_secs: 0.2
sinks:
  out:
    inputs: [in]${httpSink(sink.port, 100, '\n    buffer: { type: memory, max_events: 100, when_full: drop_newest }')}
  metrics_out:
    type: file
    inputs: [metrics]
    path: ${dir}/metrics.log
    encoding: { codec: json }
`,
  );
  const count = 20_000;
  const svc = startSvc(['--config', config], { stdin: lines(count) });
  try {
    const discarded = () => {
      const path = join(dir, 'metrics.log');
      let latest = 0;
      for (const line of existsSync(path) ? readFileSync(path, 'utf8').split('\n') : []) {
        if (!line.includes('"component_discarded_events_total"') || !line.includes('"component_id":"out"')) continue;
        latest = (JSON.parse(line) as { counter: { value: number } }).counter.value;
      }
      return latest;
    };
    await waitFor(
      () => sink.events() + discarded() === count,
      () => `delivered ${sink.events()} + discarded ${discarded()} = ${count}; stderr: ${svc.stderr()}`,
      30000,
    );
    assert.ok(discarded() > 0, 'some events were dropped');
    assert.match(
      svc.stderr(),
      /WARN svc::sinks::http: Buffer is full: events dropped \(when_full = drop_newest\)\. .*component_id=out/,
    );
    svc.child.kill('SIGTERM');
    assert.is((await svc.exited).status, 0);
  } finally {
    svc.child.kill('SIGKILL');
    sink.close();
  }
});

test('--threads 2 and --threads 1 give the same events in the same order through a two-remap chain', async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
sources:
  in:
    type: stdin
    decoding: { codec: json }
transforms:
  first:
    type: remap
    inputs: [in]
    source: |
      .n = to_int!(.n)
      if .n % 7 == 0 { abort }
      .square = .n * .n
      del(.timestamp)
      del(.host)
  second:
    type: remap
    inputs: [first]
    source: .odd = (to_int(.n) ?? 0) % 2 == 1
sinks:
  out:
    type: console
    inputs: [second]
    encoding: { codec: json }
`,
  );
  const input = Array.from({ length: 5000 }, (_, n) => JSON.stringify({ n: String(n) }) + '\n').join('');
  const [one, two] = await Promise.all(
    ['1', '2'].map((threads) => startSvc(['--config', config, '--threads', threads], { stdin: input }).exited),
  );
  assert.is(one!.status, 0, one!.stderr);
  assert.is(two!.status, 0, two!.stderr);
  assert.match(one!.stderr, /svc has started\. .*threads=1\n/);
  assert.match(two!.stderr, /svc has started\. .*threads=2\n/);
  const expected = Array.from({ length: 5000 }, (_, n) => n)
    .filter((n) => n % 7 !== 0)
    .map((n) => JSON.stringify({ n, odd: n % 2 === 1, source_type: 'stdin', square: n * n }) + '\n')
    .join('');
  assert.is(one!.stdout, expected);
  assert.is(two!.stdout, expected);
});

test('stdin → remap → console: the remap worker decodes and encodes, and the source still counts what failed to decode', async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
sources:
  in:
    type: stdin
    decoding: { codec: json }
transforms:
  tag:
    type: remap
    inputs: [in]
    source: |
      del(.timestamp)
      del(.host)
      .n = to_int!(.n) * 2
sinks:
  out:
    type: console
    inputs: [tag]
    encoding: { codec: csv, csv: { fields: [n, source_type] } }
`,
  );
  const input = Array.from({ length: 3000 }, (_, n) =>
    n === 1234 ? '{broken\n' : JSON.stringify({ n: String(n) }) + '\n',
  ).join('');
  const { status, stdout, stderr } = await startSvc(['--config', config, '--threads', '2'], { stdin: input }).exited;
  assert.is(status, 0, stderr);
  const expected = Array.from({ length: 3000 }, (_, n) => n)
    .filter((n) => n !== 1234)
    .map((n) => `${n * 2},stdin\n`)
    .join('');
  assert.is(stdout, expected);
  assert.match(
    stderr,
    /ERROR svc::sources::stdin: Failed deserializing frame: Error parsing JSON: Error\("key must be a string", line: 1, column: 2\) component_kind=source component_type=stdin component_id=in error_type=parser_failed/,
  );
});

test.run();
