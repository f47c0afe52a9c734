// Clients that misbehave against a live instance: one that stops reading while a fast heartbeat runs, one
// that asks for more than it reads, one that sends bytes that are not WebSocket frames. The instance
// keeps serving everyone else, its memory stays bounded, and its stderr has one line per incident and no
// stack trace.

import { readFileSync } from 'node:fs';
import { getIntrospectionQuery } from 'graphql';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IDLE_PIPELINE, firstResults, startApiInstance, type ApiInstance } from './support.js';
import { RawClient } from './raw-ws.js';

let api: ApiInstance;
test.before(async () => {
  api = await startApiInstance(IDLE_PIPELINE);
});
test.after(async () => {
  await api.stop();
});

/** Resident memory of the instance, in bytes. */
function residentBytes(): number {
  const status = readFileSync(`/proc/${api.run.child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

async function stillServing(): Promise<void> {
  assert.equal(await (await fetch(`${api.base}/health`)).json(), { ok: true });
  // Beats already on their way when it unsubscribes may come on top of the three.
  const beats = await firstResults(api.ws, 'subscription { heartbeat(interval: 10) { utc } }', {}, 3);
  assert.ok(beats.length >= 3 && beats.every((beat) => beat.data.heartbeat.utc));
}

function assertNoStack(): void {
  assert.not.match(api.run.stderr(), /\n\s+at /);
}

test('a client that stops reading under a 10 ms heartbeat is cut off by the keep-alive; others are served meanwhile', async () => {
  const before = residentBytes();
  const client = await RawClient.open(api.ws, ['graphql-ws']);
  client.send({ type: 'connection_init' });
  await client.nextWhere((message) => message.type === 'ka');
  client.send({ id: '1', type: 'start', payload: { query: 'subscription { heartbeat(interval: 10) { utc } }' } });
  await client.nextWhere((message) => message.type === 'data');
  (client.ws as any)._socket.pause();
  await stillServing();
  // A ping every 12 s; the one it leaves unanswered gets it cut off at the next.
  await api.run.waitForStderr(/Cut off a WebSocket client that did not answer a ping\./, 40000);
  await stillServing();
  (client.ws as any)._socket.resume();
  await client.closed;
  assert.ok(
    residentBytes() - before < 64 * 1024 * 1024,
    `resident memory grew from ${before} to ${residentBytes()} bytes`,
  );
  assertNoStack();
});

test('a client that asks for more than it reads is closed with 1008', async () => {
  const client = await RawClient.open(api.ws, ['graphql-transport-ws']);
  client.send({ type: 'connection_init' });
  await client.next();
  (client.ws as any)._socket.pause();
  // 300 answers of ~100 kB each: more than the kernel's buffers and the server's limit together. A busy
  // instance takes long to make them (and then to serve stillServing's requests): only the keep-alive, which
  // cuts off a client that stopped reading 24 s after it connected, bounds the time.
  for (let id = 0; id < 300; id++)
    client.send({ id: String(id), type: 'subscribe', payload: { query: getIntrospectionQuery() } });
  await api.run.waitForStderr(/Closed a WebSocket client that does not read its messages\./);
  await stillServing();
  (client.ws as any)._socket.resume();
  assert.is((await client.closed).code, 1008);
  assertNoStack();
});

test('bytes that are not WebSocket frames close that socket with 1002; the instance stays up', async () => {
  const client = await RawClient.open(api.ws, ['graphql-transport-ws']);
  (client.ws as any)._socket.write(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
  assert.is((await client.closed).code, 1002);
  await api.run.waitForStderr(/Closed a WebSocket connection on an error\./);
  await stillServing();
  assertNoStack();
  assert.is(api.run.child.exitCode, null);
});

test.run();
