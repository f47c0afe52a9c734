import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import socketSource from '../../../../host/components/sources/socket.js';
import { buildSource, runSource, sourceMetadata, testEnv } from '../../support/sources.js';
import { freePort } from '../../support/svc.js';

test('tcp: frames split across packets join up; host and port are the peer', async () => {
  const port = await freePort();
  const run = runSource(
    await buildSource(socketSource, { mode: 'tcp', address: `127.0.0.1:${port}` }, testEnv('socket')),
  );
  const client = connect(port, '127.0.0.1');
  await once(client, 'connect');
  client.write('first li');
  await new Promise((resolve) => setTimeout(resolve, 20));
  client.write('ne\nsecond\nthi');
  client.end('rd');
  await run.waitFor(3);
  assert.equal(
    run.events.map((e) => e.message),
    ['first line', 'second', 'third'],
  );
  assert.is(run.events[0]!.host, '127.0.0.1');
  assert.is(run.events[0]!.port, BigInt(client.localPort!));
  assert.is(run.events[0]!.source_type, 'socket');
  run.shutdown.abort();
  await run.done;
});

test('tcp: many connections open at once raise no listener-leak warning', async () => {
  const warnings: string[] = [];
  const warned = (warning: Error) => warnings.push(warning.name);
  process.on('warning', warned);
  const port = await freePort();
  const run = runSource(
    await buildSource(socketSource, { mode: 'tcp', address: `127.0.0.1:${port}` }, testEnv('socket')),
  );
  const clients = Array.from({ length: 12 }, () => connect(port, '127.0.0.1'));
  try {
    await Promise.all(clients.map((client) => once(client, 'connect')));
    clients.forEach((client, i) => client.write(`line ${i}\n`));
    await run.waitFor(12);
    // Node emits its warnings on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(warnings, []);
  } finally {
    process.off('warning', warned);
    for (const client of clients) client.end();
    run.shutdown.abort();
    await run.done;
  }
});

test('log_namespace: over tcp and udp the line is the event, the peer is in %socket.host and %socket.port', async () => {
  const tcpPort = await freePort();
  const tcp = runSource(
    await buildSource(
      socketSource,
      { mode: 'tcp', address: `127.0.0.1:${tcpPort}`, log_namespace: true, port_key: '' },
      testEnv('socket'),
    ),
  );
  const client = connect(tcpPort, '127.0.0.1');
  await once(client, 'connect');
  client.end('over tcp\n');
  await tcp.waitFor(1);
  assert.equal(tcp.events, ['over tcp']);
  assert.equal(sourceMetadata(tcp.metadata[0]!, 'socket'), { host: '127.0.0.1', port: BigInt(client.localPort!) });
  tcp.shutdown.abort();
  await tcp.done;

  const udpPort = await freePort();
  const udp = runSource(
    await buildSource(
      socketSource,
      { mode: 'udp', address: `127.0.0.1:${udpPort}`, log_namespace: true, decoding: { codec: 'json' } },
      testEnv('socket'),
    ),
  );
  const datagrams = createSocket('udp4');
  datagrams.send('[1, "two"]', udpPort, '127.0.0.1');
  await udp.waitFor(2);
  // The json codec's values are the events, whatever they are.
  assert.equal(udp.events, [1n, 'two']);
  const own = sourceMetadata(udp.metadata[0]!, 'socket');
  assert.is(own.host, '127.0.0.1');
  assert.is(typeof own.port, 'bigint');
  datagrams.close();
  udp.shutdown.abort();
  await udp.done;
});

test('tcp: a 10 MB line is delivered intact, and the line after it', async () => {
  const port = await freePort();
  const run = runSource(
    await buildSource(socketSource, { mode: 'tcp', address: `127.0.0.1:${port}` }, testEnv('socket')),
  );
  const client = connect(port, '127.0.0.1');
  await once(client, 'connect');
  const length = 10 * 1024 * 1024;
  client.end(`${'x'.repeat(length)}\nafter\n`);
  await run.waitFor(2);
  assert.equal(
    run.events.map((e) => String(e.message).length),
    [length, 5],
  );
  run.shutdown.abort();
  await run.done;
});

test('tcp: a client trickling an unterminated line does not hold up another one', async () => {
  const port = await freePort();
  const run = runSource(
    await buildSource(socketSource, { mode: 'tcp', address: `127.0.0.1:${port}` }, testEnv('socket')),
  );
  const trickler = connect(port, '127.0.0.1');
  await once(trickler, 'connect');
  const piece = Buffer.alloc(1024, 't');
  // Each trickled piece reaches the source before the next is sent: a megabyte held in a thousand reads.
  for (let i = 0; i < 1024; i++) await new Promise((resolve) => trickler.write(piece, resolve));
  const sender = connect(port, '127.0.0.1');
  await once(sender, 'connect');
  for (let i = 0; i < 100; i++) sender.write(`line ${i}\n`);
  await run.waitFor(100);
  assert.equal(
    run.events.map((e) => e.message),
    Array.from({ length: 100 }, (_, i) => `line ${i}`),
  );
  trickler.end('end\n');
  await run.waitFor(101);
  assert.is(String(run.events[100]!.message).length, 1024 * 1024 + 3);
  sender.destroy();
  run.shutdown.abort();
  await run.done;
});

test('tcp: a taken port fails the build naming the address; shutdown ends open connections after the timeout', async () => {
  const port = await freePort();
  const env = testEnv('socket');
  const run = runSource(
    await buildSource(socketSource, { mode: 'tcp', address: `127.0.0.1:${port}`, shutdown_timeout_secs: 0 }, env),
  );
  try {
    await buildSource(socketSource, { mode: 'tcp', address: `127.0.0.1:${port}` }, env);
    assert.unreachable('the second build should fail');
  } catch (error) {
    assert.match((error as Error).message, `could not listen on 127.0.0.1:${port}: address already in use`);
  }
  const client = connect(port, '127.0.0.1');
  client.on('error', () => undefined);
  client.write('kept open\n');
  await run.waitFor(1);
  run.shutdown.abort();
  await run.done;
  client.destroy();
});

test('tcp: max_connection_duration_secs half-closes a long connection; the peer finishes its frame', async () => {
  const port = await freePort();
  const run = runSource(
    await buildSource(
      socketSource,
      { mode: 'tcp', address: `127.0.0.1:${port}`, max_connection_duration_secs: 1 },
      testEnv('socket'),
    ),
  );
  // Half-open: the client sees the source's end and then sends the rest of its line itself.
  const client = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(client, 'connect');
  client.write('before\npart');
  await once(client, 'end');
  client.end('ial\n');
  await once(client, 'close');
  await run.waitFor(2);
  assert.equal(
    run.events.map((e) => e.message),
    ['before', 'partial'],
  );
  run.shutdown.abort();
  await run.done;
});

test('udp: each datagram is an event, cut at max_length', async () => {
  const port = await freePort();
  const run = runSource(
    await buildSource(socketSource, { mode: 'udp', address: `127.0.0.1:${port}`, max_length: 5 }, testEnv('socket')),
  );
  const client = createSocket('udp4');
  client.send('hello', port, '127.0.0.1');
  client.send('multi\nline', port, '127.0.0.1');
  await run.waitFor(2);
  assert.equal(run.events.map((e) => e.message).sort(), ['hello', 'multi'].sort());
  assert.is(run.events[0]!.host, '127.0.0.1');
  assert.is(typeof run.events[0]!.port, 'bigint');
  client.close();
  run.shutdown.abort();
  await run.done;
});

test('udp: a burst from two peers arrives whole, each event stamped with its own peer', async () => {
  const port = await freePort();
  const run = runSource(
    await buildSource(socketSource, { mode: 'udp', address: `127.0.0.1:${port}` }, testEnv('socket')),
  );
  const peers = [createSocket('udp4'), createSocket('udp4')];
  for (const peer of peers) peer.bind(0, '127.0.0.1');
  await Promise.all(peers.map((peer) => once(peer, 'listening')));
  // Interleaved, so that datagrams of one millisecond alternate between peers; in runs of 100, which the
  // kernel's default receive buffer holds until this thread reads them.
  const count = 2000;
  for (let i = 0; i < count; i++) {
    peers[i % 2]!.send(`m${i}`, port, '127.0.0.1');
    if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
  }
  await run.waitFor(count);
  const ports = peers.map((peer) => BigInt(peer.address().port));
  assert.is(run.events.length, count);
  // The datagrams read in one turn go on as one batch, not one each (a decode call and a send per datagram
  // fell behind at ~40k a second).
  assert.ok(run.batches.length <= count / 10, `${run.batches.length} batches`);
  for (const event of run.events) {
    const i = Number(String(event.message).slice(1));
    assert.is(event.port, ports[i % 2], `m${i}`);
  }
  for (const peer of peers) peer.close();
  run.shutdown.abort();
  await run.done;
});

test('unix_stream: events carry the socket path as host; a stale socket file is replaced; unix_datagram is refused', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'svc-socket-')), 'in.sock');
  const first = runSource(await buildSource(socketSource, { mode: 'unix_stream', path }, testEnv('socket')));
  first.shutdown.abort();
  await first.done;
  const stale = createServer().listen(path);
  await once(stale, 'listening');
  stale.close();
  const run = runSource(
    await buildSource(socketSource, { mode: 'unix_stream', path, decoding: { codec: 'json' } }, testEnv('socket')),
  );
  const client = connect(path);
  client.end('{"a":1}\n{"a":2}\n');
  await run.waitFor(2);
  assert.equal(
    run.events.map((e) => e.a),
    [1n, 2n],
  );
  assert.is(run.events[0]!.host, path);
  assert.not.ok('port' in run.events[0]!);
  run.shutdown.abort();
  await run.done;
  try {
    await buildSource(socketSource, { mode: 'unix_datagram', path }, testEnv('socket'));
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, 'unix_datagram');
  }
});

test('options: mode decides which options exist', () => {
  assert.not.ok(socketSource.options.safeParse({ mode: 'udp', address: '127.0.0.1:1', connection_limit: 2 }).success);
  assert.not.ok(socketSource.options.safeParse({ mode: 'tcp' }).success);
  assert.not.ok(
    socketSource.options.safeParse({ mode: 'udp', address: '127.0.0.1:1', max_connection_duration_secs: 1 }).success,
  );
  assert.ok(socketSource.options.safeParse({ mode: 'tcp', address: '0.0.0.0:9000', connection_limit: 2 }).success);
});

test.run();
