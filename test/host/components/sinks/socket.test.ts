// The socket sink against local listeners: TCP and Unix stream bytes, reconnection after the peer closes
// and after a refused connection (Fibonacci backoff, a kill counting the batch not written), one UDP
// datagram per event, and the healthcheck.

import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import socket, { buildSocketSink } from '../../../../host/components/sinks/socket.js';
import { waitFor } from '../../../support/wait-for.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { steppedTimer } from '../../support/stepped-timer.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-socket-sink-'));

/** A stream server that keeps what each connection sent. */
function streamServer() {
  const connections: Array<{ socket: Socket; data: Buffer[]; closed: Promise<void> }> = [];
  const server: Server = createServer((connection) => {
    const data: Buffer[] = [];
    connection.on('data', (chunk: Buffer) => data.push(chunk));
    connections.push({
      socket: connection,
      data,
      closed: new Promise((resolve) => connection.on('close', () => resolve())),
    });
  });
  const received = () => connections.map((c) => Buffer.concat(c.data).toString());
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { server, connections, received, close };
}

async function build(options: object) {
  const env = componentEnv(socket);
  const sink = await socket.build(socket.options.parse(options), env);
  return { env, sink };
}

test('tcp: events framed with newlines on one connection', async () => {
  const target = streamServer();
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  const { port } = target.server.address() as AddressInfo;
  const { env, sink } = await build({
    mode: 'tcp',
    address: `127.0.0.1:${port}`,
    encoding: { codec: 'json' },
    keepalive: { time_secs: 60 },
  });
  await sink.write(logBatch([{ message: 'a' }, { message: 'b' }]));
  await sink.write(logBatch([{ message: 'c' }]));
  await sink.close();
  await target.connections[0]!.closed;
  await target.close();
  assert.equal(target.received(), ['{"message":"a"}\n{"message":"b"}\n{"message":"c"}\n']);
  assert.is(env.metrics.total('component_sent_bytes_total'), 48);
});

test('tcp: a connection the peer closed is noticed; the next write reconnects', async () => {
  const target = streamServer();
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  const { port } = target.server.address() as AddressInfo;
  const { sink } = await build({ mode: 'tcp', address: `127.0.0.1:${port}`, encoding: { codec: 'text' } });
  await sink.write(logBatch([{ message: 'first' }]));
  while (target.received()[0] !== 'first\n') await sleep(10);
  target.connections[0]!.socket.destroy();
  await target.connections[0]!.closed;
  // A write before the sink's socket read the peer's end would be lost: wait until the sink let it go.
  const connection = (sink as unknown as { connection: { socket: unknown } }).connection;
  await waitFor(
    () => connection.socket === undefined,
    () => 'the sink to drop the connection the peer closed',
  );
  await sink.write(logBatch([{ message: 'second' }]));
  await sink.close();
  await target.connections[1]!.closed;
  await target.close();
  assert.equal(target.received(), ['first\n', 'second\n']);
});

test('tcp: a refused connection is retried with backoff until the listener is up', async () => {
  const probe = streamServer();
  await new Promise<void>((resolve) => probe.server.listen(0, '127.0.0.1', resolve));
  const { port } = probe.server.address() as AddressInfo;
  await probe.close();
  const { env, sink } = await build({ mode: 'tcp', address: `127.0.0.1:${port}`, encoding: { codec: 'text' } });
  assert.ok(await rejects(sink.healthcheck!({})));
  const written = sink.write(logBatch([{ message: 'late' }]));
  while (env.metrics.total('component_errors_total', { error_type: 'connection_failed' }) === 0) await sleep(20);
  const target = streamServer();
  await new Promise<void>((resolve) => target.server.listen(port, '127.0.0.1', resolve));
  await written;
  await sink.healthcheck!({});
  await sink.close();
  while (target.received().join('') !== 'late\n') await sleep(10);
  await Promise.all(target.connections.map((c) => c.closed));
  await target.close();
});

test('tcp: reconnects back off 0.5, 1, 2, 4 s (doubling, as in Vector); kill stops them and counts the batch not written', async () => {
  const probe = streamServer();
  await new Promise<void>((resolve) => probe.server.listen(0, '127.0.0.1', resolve));
  const { port } = probe.server.address() as AddressInfo;
  await probe.close();
  const { timer, waits } = steppedTimer();
  const env = componentEnv(socket);
  const options = socket.options.parse({ mode: 'tcp', address: `127.0.0.1:${port}`, encoding: { codec: 'text' } });
  const sink = await buildSocketSink(options, env, timer);
  const written = sink.write(logBatch([{ message: 'a' }, { message: 'b' }, { message: 'c' }]));
  for (let failures = 1; failures <= 4; failures++) {
    await waitFor(
      () => waits.length === failures,
      () => `reconnect wait ${failures}`,
    );
    if (failures < 4) waits[failures - 1]!.release();
  }
  assert.equal(
    waits.map((wait) => wait.ms),
    [500, 1000, 2000, 4000],
  );
  assert.is(env.metrics.total('component_errors_total', { error_type: 'connection_failed' }), 4);
  assert.is(sink.kill!(), 3);
  await written;
  await sink.close();
  assert.is(env.metrics.total('component_sent_bytes_total'), 0);
});

test('unix_stream: events on the socket path, length-delimited framing', async () => {
  const path = join(dir, 'sink.sock');
  const target = streamServer();
  await new Promise<void>((resolve) => target.server.listen(path, resolve));
  const { sink } = await build({
    mode: 'unix_stream',
    path,
    encoding: { codec: 'text' },
    framing: { method: 'length_delimited' },
  });
  await sink.write(logBatch([{ message: 'hi' }, { message: 'there' }]));
  await sink.close();
  await target.connections[0]!.closed;
  await target.close();
  assert.is(target.received()[0], '\x00\x00\x00\x02hi\x00\x00\x00\x05there');
});

test('udp: one datagram per event, unframed', async () => {
  const receiver = createSocket('udp4');
  const datagrams: string[] = [];
  receiver.on('message', (message) => datagrams.push(message.toString()));
  await new Promise<void>((resolve) => receiver.bind(0, '127.0.0.1', resolve));
  const { port } = receiver.address();
  const { env, sink } = await build({ mode: 'udp', address: `127.0.0.1:${port}`, encoding: { codec: 'json' } });
  await sink.write(logBatch([{ message: 'a' }, { message: 'b' }, { message: 'c' }]));
  await sink.close();
  while (datagrams.length < 3) await sleep(10);
  receiver.close();
  assert.equal(datagrams, ['{"message":"a"}', '{"message":"b"}', '{"message":"c"}']);
  assert.is(env.metrics.total('component_sent_bytes_total'), 45);
});

test('options: mode decides the required options; addresses are host:port', () => {
  assert.not.ok(socket.options.safeParse({ mode: 'tcp', encoding: { codec: 'json' } }).success);
  assert.not.ok(socket.options.safeParse({ mode: 'tcp', address: 'nohost', encoding: { codec: 'json' } }).success);
  assert.not.ok(
    socket.options.safeParse({
      mode: 'udp',
      address: '127.0.0.1:9',
      encoding: { codec: 'json' },
      framing: { method: 'bytes' },
    }).success,
  );
  assert.not.ok(socket.options.safeParse({ mode: 'unix_stream', encoding: { codec: 'json' } }).success);
  const parsed = socket.options.parse({ mode: 'tcp', address: '[::1]:5000', encoding: { codec: 'json' } });
  assert.equal(parsed.mode === 'tcp' && parsed.address, { host: '::1', port: 5000 });
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the promise rejects. */
function rejects(promise: Promise<unknown>): Promise<boolean> {
  return promise.then(
    () => false,
    () => true,
  );
}

test.run();
