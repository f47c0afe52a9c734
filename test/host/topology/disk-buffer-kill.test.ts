// A disk-buffered sink through `kill -9`: events accepted while the destination is down are on disk; the
// process is killed; the next start delivers every one of them.

import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RECORD_HEADER_SIZE } from '../../../host/topology/disk-buffer.js';
import { freePort, logLines, startSvc, tempDir, waitFor } from '../support/svc.js';

/** A destination answering 503 (down) until `up()`, then 200; it keeps the lines of the requests it took. */
async function destination() {
  let up = false;
  let refused = 0;
  const delivered: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (!up) {
        refused++;
        response.statusCode = 503;
      } else {
        delivered.push(
          ...Buffer.concat(chunks)
            .toString('utf8')
            .split('\n')
            .filter((line) => line !== ''),
        );
      }
      response.end();
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    up: () => (up = true),
    refused: () => refused,
    delivered,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

/** The events in the whole records of the buffer's segment files (read from the record headers). */
function eventsOnDisk(directory: string): number {
  if (!existsSync(directory)) return 0;
  let events = 0;
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.dat'))) {
    const bytes = readFileSync(join(directory, name));
    for (let at = 0; at + RECORD_HEADER_SIZE <= bytes.length; ) {
      const end = at + RECORD_HEADER_SIZE + bytes.readUInt32LE(at + 8);
      if (end > bytes.length) break;
      events += bytes.readUInt32LE(at + 12);
      at = end;
    }
  }
  return events;
}

test('kill -9 with events on disk behind a destination that is down: the next start delivers them all', async () => {
  const sink = await destination();
  const dir = tempDir();
  const sourcePort = await freePort();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
data_dir: ${join(dir, 'data')}
sources:
  in:
    type: http_server
    address: 127.0.0.1:${sourcePort}
    decoding: { codec: bytes }
    framing: { method: newline_delimited }
sinks:
  out:
    inputs: [in]
    type: http
    uri: http://127.0.0.1:${sink.port}/
    encoding: { codec: text }
    framing: { method: newline_delimited }
    batch: { max_events: 50, timeout_secs: 0.1 }
    healthcheck: { enabled: false }
    buffer: { type: disk, max_size: 268435488 }
`,
  );
  const bufferDir = join(dir, 'data', 'buffer', 'v2', 'out');
  const sent = Array.from({ length: 400 }, (_, i) => `event ${i}`);
  const first = startSvc(['--config', config]);
  let second: ReturnType<typeof startSvc> | undefined;
  try {
    await first.waitForStderr(/svc has started/);
    for (let i = 0; i < sent.length; i += 100) {
      const body = `${sent.slice(i, i + 100).join('\n')}\n`;
      const accepted = await fetch(`http://127.0.0.1:${sourcePort}/`, { method: 'POST', body });
      assert.is(accepted.status, 200);
    }
    await waitFor(
      () => eventsOnDisk(bufferDir) === sent.length && sink.refused() > 0,
      () => `${sent.length} events on disk (${eventsOnDisk(bufferDir)}) and a refused request (${sink.refused()})`,
    );
    first.child.kill('SIGKILL');
    assert.is((await first.exited).signal, 'SIGKILL');
    assert.is(sink.delivered.length, 0);
    // The killed process's lock is left behind: the next start takes it over.
    assert.is(readFileSync(join(bufferDir, 'buffer.lock'), 'utf8'), `${first.child.pid}\n`);

    sink.up();
    second = startSvc(['--config', config]);
    await waitFor(
      () => new Set(sink.delivered).size === sent.length,
      () => `${sent.length} events delivered, got ${new Set(sink.delivered).size}; stderr: ${second!.stderr()}`,
    );
    const lost = sent.filter((line) => !sink.delivered.includes(line));
    assert.equal(lost, []);
    assert.is(sink.delivered.length, sent.length, 'each event delivered once');
    second.child.kill('SIGTERM');
    const { status, stderr } = await second.exited;
    assert.is(status, 0, stderr);
    assert.not.match(logLines(stderr), /ERROR/);
    // All acknowledged: the ledger points at the end of the last record.
    const ledger = JSON.parse(readFileSync(join(bufferDir, 'ledger.json'), 'utf8')) as { segment: number };
    const segment = readFileSync(join(bufferDir, `buffer-data-${ledger.segment}.dat`));
    assert.equal(ledger, { segment: ledger.segment, offset: segment.length });
  } finally {
    first.child.kill('SIGKILL');
    second?.child.kill('SIGKILL');
    sink.close();
  }
});

test('kill -9 while a request is being retried: its record stays unacknowledged and the next start sends it', async () => {
  const sink = await destination();
  const dir = tempDir();
  const sourcePort = await freePort();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
data_dir: ${join(dir, 'data')}
sources:
  in: { type: http_server, address: "127.0.0.1:${sourcePort}" }
sinks:
  out:
    inputs: [in]
    type: http
    uri: http://127.0.0.1:${sink.port}/
    encoding: { codec: text }
    framing: { method: newline_delimited }
    batch: { timeout_secs: 0.1 }
    request: { retry_initial_backoff_secs: 1, retry_jitter_mode: None }
    healthcheck: { enabled: false }
    buffer: { type: disk, max_size: 268435488 }
`,
  );
  const first = startSvc(['--config', config]);
  let second: ReturnType<typeof startSvc> | undefined;
  try {
    await first.waitForStderr(/svc has started/);
    assert.is((await fetch(`http://127.0.0.1:${sourcePort}/`, { method: 'POST', body: 'the one event' })).status, 200);
    // Refused twice: the first retry came after the ledger's sync (every 500 ms) had its chance to move on.
    await waitFor(
      () => sink.refused() >= 2,
      () => `${sink.refused()} refused requests`,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    sink.up();
    second = startSvc(['--config', config]);
    await waitFor(
      () => sink.delivered.length > 0 || second!.child.exitCode !== null,
      () => `the event delivered; stderr: ${second!.stderr()}`,
    );
    assert.equal(sink.delivered, ['the one event']);
  } finally {
    first.child.kill('SIGKILL');
    second?.child.kill('SIGKILL');
    sink.close();
  }
});

test("timestamps over chrono's whole range go through a transform worker and a disk buffer (kill -9) to a sink", async () => {
  const sink = await destination();
  const dir = tempDir();
  const sourcePort = await freePort();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
data_dir: ${join(dir, 'data')}
sources:
  in:
    type: http_server
    address: 127.0.0.1:${sourcePort}
    decoding: { codec: json }
    framing: { method: newline_delimited }
transforms:
  stamp:
    inputs: [in]
    type: remap
    source: |
      .t = parse_timestamp!(.text, "%+")
      .year = format_timestamp!(.t, "%Y")
      .seconds = to_unix_timestamp(.t)
      .literal = t'0000-01-01T00:00:00+01:00'
sinks:
  out:
    inputs: [stamp]
    type: http
    uri: http://127.0.0.1:${sink.port}/
    encoding: { codec: json, only_fields: [t, year, seconds, literal] }
    framing: { method: newline_delimited }
    batch: { max_events: 50, timeout_secs: 0.1 }
    healthcheck: { enabled: false }
    buffer: { type: disk, max_size: 268435488 }
`,
  );
  const bufferDir = join(dir, 'data', 'buffer', 'v2', 'out');
  const texts = [
    '+262142-12-31T23:59:59.999999999Z',
    '-262143-01-01T00:00:00Z',
    '9999-12-31T23:59:59-01:00',
    '0001-01-01T00:00:00.5Z',
    '2020-01-01T00:00:00Z',
  ];
  const first = startSvc(['--config', config]);
  let second: ReturnType<typeof startSvc> | undefined;
  try {
    await first.waitForStderr(/svc has started/);
    const body = `${texts.map((text) => JSON.stringify({ text })).join('\n')}\n`;
    assert.is((await fetch(`http://127.0.0.1:${sourcePort}/`, { method: 'POST', body })).status, 200);
    await waitFor(
      () => eventsOnDisk(bufferDir) === texts.length && sink.refused() > 0,
      () => `${texts.length} events on disk (${eventsOnDisk(bufferDir)}) and a refused request (${sink.refused()})`,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    // Read back from the file by the next process.
    sink.up();
    second = startSvc(['--config', config]);
    await waitFor(
      () => sink.delivered.length === texts.length,
      () => `${texts.length} events delivered, got ${sink.delivered.length}; stderr: ${second!.stderr()}`,
    );
    const literal = '-0001-12-31T23:00:00Z';
    assert.equal(
      sink.delivered.map((line) => JSON.parse(line)),
      [
        { t: '+262142-12-31T23:59:59.999999999Z', year: '+262142', seconds: 8_210_266_876_799, literal },
        { t: '-262143-01-01T00:00:00Z', year: '-262143', seconds: -8_334_601_228_800, literal },
        { t: '+10000-01-01T00:59:59Z', year: '+10000', seconds: 253_402_304_399, literal },
        { t: '0001-01-01T00:00:00.500Z', year: '0001', seconds: -62_135_596_800, literal },
        { t: '2020-01-01T00:00:00Z', year: '2020', seconds: 1_577_836_800, literal },
      ],
    );
    second.child.kill('SIGTERM');
    const { status, stderr } = await second.exited;
    assert.is(status, 0, stderr);
  } finally {
    first.child.kill('SIGKILL');
    second?.child.kill('SIGKILL');
    sink.close();
  }
});

test('a disk buffer needs a data_dir it can write to: the error names the sink and the directory', async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  const file = join(dir, 'not-a-directory');
  writeFileSync(file, '');
  writeFileSync(
    config,
    `
data_dir: ${file}
sources:
  in: { type: stdin }
sinks:
  out:
    inputs: [in]
    type: console
    encoding: { codec: text }
    buffer: { type: disk, max_size: 268435488 }
`,
  );
  const svc = startSvc(['--config', config], { stdin: '' });
  const { status, stderr } = await svc.exited;
  assert.is(status, 78);
  assert.match(
    logLines(stderr, dir),
    `Configuration error: <dir>/svc.yaml: sinks.out: disk buffer in data_dir "<dir>/not-a-directory": ENOTDIR: not a directory, mkdir '<dir>/not-a-directory/buffer/v2/out'`,
  );
});

test('a second svc on the same data_dir fails at start naming the sink and the lock file; the first keeps it', async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
data_dir: ${join(dir, 'data')}
sources:
  in: { type: stdin }
sinks:
  out:
    inputs: [in]
    type: console
    encoding: { codec: text }
    buffer: { type: disk, max_size: 268435488 }
`,
  );
  const lock = join(dir, 'data', 'buffer', 'v2', 'out', 'buffer.lock');
  const first = startSvc(['--config', config]);
  try {
    await first.waitForStderr(/svc has started/);
    const second = startSvc(['--config', config], { stdin: '' });
    const { status, stderr } = await second.exited;
    assert.is(status, 78, stderr);
    assert.match(
      logLines(stderr, dir),
      `Configuration error: <dir>/svc.yaml: sinks.out: disk buffer in data_dir "<dir>/data": failed to lock <dir>/data/buffer/v2/out/buffer.lock; is another svc process (PID ${first.child.pid}) running and using this buffer?`,
    );
    assert.is(readFileSync(lock, 'utf8'), `${first.child.pid}\n`);
    first.child.stdin!.end('last\n');
    const done = await first.exited;
    assert.is(done.status, 0, done.stderr);
    assert.is(done.stdout, 'last\n');
    assert.not.ok(existsSync(lock), 'released at shutdown');
  } finally {
    first.child.kill('SIGKILL');
  }
});

test.run();
