// Vector's log namespace through the real `svc`: the global switch and a source's own, remap reading the
// metadata sources set, sinks writing the event's value, and a disk buffer keeping the metadata across a
// `kill -9`.

import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, runSvc, startSvc, tempDir, waitFor } from './support/svc.js';

test('schema.log_namespace: stdin lines are values with %vector and %stdin metadata; a source can keep the legacy shape', async () => {
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
schema: { log_namespace: true }
sources:
  in: { type: stdin }
  legacy:
    type: demo_logs
    format: shuffle
    lines: [demo line]
    count: 1
    interval: 0
    log_namespace: false
transforms:
  described:
    type: remap
    inputs: [in]
    source: '. = string!(%vector.source_type) + " on " + string!(%stdin.host) + ": " + string!(.)'
sinks:
  text:
    type: console
    inputs: [described]
    encoding: { codec: text }
  json:
    type: console
    inputs: [described, legacy]
    encoding: { codec: json }
`,
  );
  const { status, stdout, stderr } = await runSvc(['--config', config], { stdin: 'hello\n' });
  assert.is(status, 0, stderr);
  const lines = stdout.split('\n').filter((line) => line !== '');
  // The remap, stdin's one consumer, decodes its frames itself (run_framed): the metadata reaches it there too.
  const described = `stdin on ${hostname()}: hello`;
  assert.equal(lines.filter((line) => !line.startsWith('{')).sort(), [JSON.stringify(described), described]);
  const legacy = JSON.parse(lines.find((line) => line.startsWith('{'))!) as Record<string, unknown>;
  assert.equal([legacy.message, legacy.source_type, legacy.service], ['demo line', 'demo_logs', 'svc']);
});

test('file → remap reading %file.path → file sink: the sink writes the value, a template reads the metadata', async () => {
  const dir = tempDir();
  const tailed = join(dir, 'app.log');
  writeFileSync(tailed, 'one\ntwo\n');
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
data_dir: ${dir}
schema: { log_namespace: true }
sources:
  tail: { type: file, include: [${tailed}] }
transforms:
  where:
    type: remap
    inputs: [tail]
    source: |
      %out = "from-" + string!(%vector.source_type)
      . = string!(.) + " at " + to_string!(%file.offset) + " of " + string!(%file.path)
sinks:
  out:
    type: file
    inputs: [where]
    path: ${dir}/{{ %out }}.log
    encoding: { codec: text }
`,
  );
  const svc = startSvc(['--config', config]);
  const written = join(dir, 'from-file.log');
  try {
    const text = () => (existsSync(written) ? readFileSync(written, 'utf8') : '');
    await waitFor(
      () => text().split('\n').length === 3,
      () => `two lines in ${written}, got ${JSON.stringify(text())}; stderr: ${svc.stderr()}`,
    );
    assert.is(text(), `one at 0 of ${tailed}\ntwo at 4 of ${tailed}\n`);
  } finally {
    svc.child.kill('SIGTERM');
    await svc.exited;
  }
});

test('a disk buffer keeps the metadata: after kill -9, the next start renders the uri from it', async () => {
  let up = false;
  let refused = 0;
  const delivered: string[] = [];
  const destination = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (up) delivered.push(`${request.url} ${Buffer.concat(chunks).toString('utf8')}`);
      else refused++;
      response.statusCode = up ? 200 : 503;
      response.end();
    });
  }).listen(0, '127.0.0.1');
  await once(destination, 'listening');
  const sinkPort = (destination.address() as AddressInfo).port;
  const sourcePort = await freePort();
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `
data_dir: ${join(dir, 'data')}
schema: { log_namespace: true }
sources:
  in: { type: http_server, address: 127.0.0.1:${sourcePort}, path: /ingest }
sinks:
  out:
    inputs: [in]
    type: http
    uri: http://127.0.0.1:${sinkPort}/{{ %vector.source_type }}{{ %http_server.path }}
    encoding: { codec: text }
    framing: { method: newline_delimited }
    # One event per request, one request at a time: the second event's request waits for the first, which is
    # refused, so the sink's write of the buffer's record does not end and the record stays unacknowledged.
    batch: { max_events: 1 }
    request: { concurrency: 1 }
    healthcheck: { enabled: false }
    buffer: { type: disk, max_size: 268435488 }
`,
  );
  const first = startSvc(['--config', config]);
  let second: ReturnType<typeof startSvc> | undefined;
  try {
    await first.waitForStderr(/svc has started/);
    const accepted = await fetch(`http://127.0.0.1:${sourcePort}/ingest`, { method: 'POST', body: 'one\ntwo\n' });
    assert.is(accepted.status, 200);
    // Refused at least once: the event is in the buffer, not delivered.
    await waitFor(
      () => refused > 0,
      () => `a refused request; stderr: ${first.stderr()}`,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    up = true;
    second = startSvc(['--config', config]);
    await waitFor(
      () => delivered.length === 2,
      () => `two deliveries, got ${JSON.stringify(delivered)}; stderr: ${second!.stderr()}`,
    );
    assert.equal(delivered, ['/http_server/ingest one\n', '/http_server/ingest two\n']);
  } finally {
    first.child.kill('SIGKILL');
    second?.child.kill('SIGKILL');
    destination.close();
    destination.closeAllConnections();
  }
});

test.run();
