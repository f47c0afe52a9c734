import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import syslogSource from '../../../../host/components/sources/syslog.js';
import { buildSource, runSource, sourceMetadata, testEnv, vectorNamespaceEnv } from '../../support/sources.js';
import { join } from 'node:path';
import { freePort, startSvc, writeFiles } from '../../support/svc.js';

const RFC5424 =
  '<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su 77 ID47 [exampleSDID@32473 iut="3" eventSource="App"] \'su root\' failed';
const RFC3164 = '<13>Feb  5 17:32:18 10.0.0.99 myapp[123]: hello there';

test("tcp: octet-counted RFC 5424 and newline-delimited RFC 3164 give Vector's fields", async () => {
  const port = await freePort();
  const run = runSource(
    await buildSource(syslogSource, { mode: 'tcp', address: `127.0.0.1:${port}` }, testEnv('syslog')),
  );
  const client = connect(port, '127.0.0.1');
  const framed = `${Buffer.byteLength(RFC5424)} ${RFC5424}`;
  client.write(framed.slice(0, 20));
  await new Promise((resolve) => setTimeout(resolve, 20));
  client.write(framed.slice(20));
  client.end(`${RFC3164}\n`);
  await run.waitFor(2);
  const [modern, bsd] = run.events;
  assert.equal(
    { ...modern, timestamp: String(modern!.timestamp) },
    {
      appname: 'su',
      facility: 'auth',
      hostname: 'mymachine.example.com',
      // Vector's syslog source: the message's hostname (the peer when it has none, below).
      host: 'mymachine.example.com',
      message: "'su root' failed",
      msgid: 'ID47',
      procid: 77n,
      severity: 'crit',
      source_ip: '127.0.0.1',
      source_type: 'syslog',
      timestamp: '2003-10-11T22:14:15.003Z',
      version: 1n,
      'exampleSDID@32473': { iut: '3', eventSource: 'App' },
    },
  );
  assert.is(bsd!.appname, 'myapp');
  assert.is(bsd!.message, 'hello there');
  assert.is(bsd!.severity, 'notice');
  assert.is(bsd!.facility, 'user');
  run.shutdown.abort();
  await run.done;
});

/** A connection to `port` once something listens there (svc starting up). */
async function connected(port: number): Promise<Socket> {
  for (let tries = 0; ; tries++) {
    const socket = connect(port, '127.0.0.1');
    try {
      await once(socket, 'connect');
      return socket;
    } catch (error) {
      if (tries === 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

// Fed to one remap, the source sends its octet-counted frames undecoded and the remap's worker decodes them.
test('tcp into a remap: octet-counted frames cut across writes, a line fallback and an oversized frame, decoded in the worker', async () => {
  const port = await freePort();
  const config = {
    sources: { in: { type: 'syslog', mode: 'tcp', address: `127.0.0.1:${port}`, max_length: 2000 } },
    transforms: { t: { type: 'remap', inputs: ['in'], source: '.seen = true' } },
    sinks: { out: { type: 'console', inputs: ['t'], encoding: { codec: 'json' } } },
  };
  const dir = writeFiles({ 'svc.json': JSON.stringify(config) });
  const svc = startSvc(['-q', '--config', join(dir, 'svc.json')]);
  const client = await connected(port);
  const framed = `${Buffer.byteLength(RFC5424)} ${RFC5424}`;
  const oversized = `5000 ${'z'.repeat(5000)}`;
  const input = `${framed}${oversized}${framed}${RFC3164}\n${framed}`;
  for (let at = 0; at < input.length; at += 700) {
    client.write(input.slice(at, at + 700));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  client.end();
  const lines = await svc.waitForLines(4);
  const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(
    events.map((event) => [event.appname, event.message, event.seen]),
    [
      ['su', "'su root' failed", true],
      ['su', "'su root' failed", true],
      ['myapp', 'hello there', true],
      ['su', "'su root' failed", true],
    ],
  );
  svc.child.kill('SIGTERM');
  await svc.exited;
});

test('log_namespace: the message is the event; the parsed fields, the peer and structured data are in %syslog', async () => {
  const port = await freePort();
  const run = runSource(
    await buildSource(syslogSource, { mode: 'udp', address: `127.0.0.1:${port}` }, vectorNamespaceEnv('syslog')),
  );
  const client = createSocket('udp4');
  client.send(RFC5424, port, '127.0.0.1');
  await run.waitFor(1);
  client.send(RFC3164, port, '127.0.0.1');
  await run.waitFor(2);
  assert.equal(run.events, ["'su root' failed", 'hello there']);
  const modern = sourceMetadata(run.metadata[0]!, 'syslog');
  assert.equal(
    { ...modern, timestamp: String(modern.timestamp) },
    {
      appname: 'su',
      facility: 'auth',
      hostname: 'mymachine.example.com',
      // Vector's source looks for the hostname in the event, which is the message here: the peer.
      host: '127.0.0.1',
      msgid: 'ID47',
      procid: 77n,
      severity: 'crit',
      source_ip: '127.0.0.1',
      structured_data: { 'exampleSDID@32473': { iut: '3', eventSource: 'App' } },
      timestamp: '2003-10-11T22:14:15.003Z',
      version: 1n,
    },
  );
  const bsd = sourceMetadata(run.metadata[1]!, 'syslog');
  assert.equal([bsd.appname, bsd.procid, bsd.structured_data], ['myapp', 123n, {}]);
  client.close();
  run.shutdown.abort();
  await run.done;
});

test('tcp: a 10 MB octet-counted message written in 64 KiB chunks is delivered whole, and the next after it', async () => {
  const port = await freePort();
  const run = runSource(
    await buildSource(
      syslogSource,
      { mode: 'tcp', address: `127.0.0.1:${port}`, max_length: 16 * 1024 * 1024 },
      testEnv('syslog'),
    ),
  );
  const text = 'x'.repeat(10 * 1024 * 1024);
  const big = `<34>1 2003-10-11T22:14:15.003Z mymachine su 77 ID47 - ${text}`;
  const framed = Buffer.from(`${big.length} ${big}${Buffer.byteLength(RFC5424)} ${RFC5424}`);
  const client = connect(port, '127.0.0.1');
  for (let at = 0; at < framed.length; at += 64 * 1024) client.write(framed.subarray(at, at + 64 * 1024));
  client.end();
  await run.waitFor(2);
  assert.is(run.events.length, 2);
  assert.is(run.events[0]!.message, text);
  assert.is(run.events[0]!.appname, 'su');
  assert.is(run.events[1]!.message, "'su root' failed");
  run.shutdown.abort();
  await run.done;
});

test('tcp: a client keeping its connection open is disconnected after max_connection_duration_secs', async () => {
  const port = await freePort();
  const run = runSource(
    await buildSource(
      syslogSource,
      { mode: 'tcp', address: `127.0.0.1:${port}`, max_connection_duration_secs: 1 },
      testEnv('syslog'),
    ),
  );
  const client = connect(port, '127.0.0.1');
  client.write(`${RFC3164}\n`);
  await once(client, 'close');
  await run.waitFor(1);
  assert.is(run.events[0]!.message, 'hello there');
  run.shutdown.abort();
  await run.done;
});

test('udp: one message per datagram; under host_key the hostname, else the peer; source_ip the peer', async () => {
  const port = await freePort();
  const env = testEnv('syslog');
  const run = runSource(
    await buildSource(syslogSource, { mode: 'udp', address: `127.0.0.1:${port}`, host_key: 'peer' }, env),
  );
  const client = createSocket('udp4');
  client.send(RFC3164, port, '127.0.0.1');
  client.send(RFC5424, port, '127.0.0.1');
  client.send('<34>1 2003-10-11T22:14:15.003Z - nohost - - - no hostname', port, '127.0.0.1');
  await run.waitFor(3);
  const byApp = Object.fromEntries(run.events.map((e) => [e.appname, { peer: e.peer, source_ip: e.source_ip }]));
  assert.equal(byApp, {
    myapp: { peer: '10.0.0.99', source_ip: '127.0.0.1' },
    su: { peer: 'mymachine.example.com', source_ip: '127.0.0.1' },
    nohost: { peer: '127.0.0.1', source_ip: '127.0.0.1' },
  });
  assert.not.ok('host' in run.events[0]!, 'host_key replaces host');
  client.close();
  run.shutdown.abort();
  await run.done;
});

test.run();
