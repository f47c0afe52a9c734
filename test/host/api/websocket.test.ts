// The WebSocket side of the API in-process, on a small schema whose resolvers fail on purpose: the
// sub-protocol a client gets, failures logged on one line (never thrown, never with a stack), bad
// frames and messages closing the socket with their codes, a client that stops reading closed at the
// buffer limit, and shutdown that does not wait for such a client.

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema } from 'graphql';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ApiContext } from '../../../host/api/context.js';
import { MAX_BUFFERED_BYTES, subscriptionServer, type SubscriptionServer } from '../../../host/api/websocket.js';
import { LogHub } from '../../../host/log.js';
import { RawClient } from './raw-ws.js';
import { doublingFragments, nested } from './support.js';

const schema = buildSchema(`
  type Query { ok: Boolean, broken: Boolean }
  type Subscription { failing: Int, big(size: Int!): String }
`);
const query = schema.getQueryType()!.getFields();
query.ok!.resolve = () => true;
query.broken!.resolve = () => {
  throw new Error('the resolver broke');
};
const subscription = schema.getSubscriptionType()!.getFields();
subscription.failing!.subscribe = async function* () {
  yield { failing: 1 };
  throw new Error('the stream broke');
};
subscription.big!.subscribe = async function* (_parent: unknown, { size }: { size: number }) {
  const value = { big: 'x'.repeat(size) };
  for (;;) {
    yield value;
    await new Promise((resolve) => setImmediate(resolve));
  }
};

let http: Server;
let subscriptions: SubscriptionServer;
let url: string;
const lines: string[] = [];

test.before(async () => {
  const log = new LogHub({
    level: 'info',
    format: 'text',
    color: false,
    rateLimitSecs: 0,
    backtraces: false,
    write: (line) => lines.push(line),
  }).logger('svc::api');
  subscriptions = subscriptionServer(schema, {} as ApiContext, log);
  http = createServer().on('upgrade', (request, socket, head) => subscriptions.handleUpgrade(request, socket, head));
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/graphql`;
});
test.after(async () => {
  await subscriptions.close();
  http.close();
});

/** Log lines written since `from`; none of them may hold a stack frame. */
function logSince(from: number): string[] {
  const written = lines.slice(from);
  assert.not.match(written.join(''), /\n\s+at /);
  return written;
}

async function transportWs(): Promise<RawClient> {
  const client = await RawClient.open(url, ['graphql-transport-ws']);
  client.send({ type: 'connection_init' });
  assert.equal(await client.next(), { type: 'connection_ack' });
  return client;
}

async function legacyWs(): Promise<RawClient> {
  const client = await RawClient.open(url, ['graphql-ws']);
  client.send({ type: 'connection_init' });
  await client.nextWhere((message) => message.type === 'ka');
  return client;
}

test('the client gets graphql-transport-ws when it offers it, graphql-ws otherwise, and 4406 with neither', async () => {
  const both = await RawClient.open(url, ['graphql-ws', 'graphql-transport-ws']);
  assert.is(both.ws.protocol, 'graphql-transport-ws');
  both.close();
  const legacy = await RawClient.open(url, ['graphql-ws']);
  assert.is(legacy.ws.protocol, 'graphql-ws');
  legacy.close();
  const none = await RawClient.open(url, []);
  assert.equal(await none.closed, { code: 4406, reason: 'Subprotocol not acceptable' });
});

test('graphql-transport-ws: a failing stream ends in an error message and one log line', async () => {
  const from = lines.length;
  const client = await transportWs();
  try {
    client.send({ id: '1', type: 'subscribe', payload: { query: 'subscription { failing }' } });
    assert.equal(await client.next(), { id: '1', type: 'next', payload: { data: { failing: 1 } } });
    const error = await client.next();
    assert.is(error.type, 'error');
    assert.is(error.payload[0].message, 'the stream broke');
    const logged = logSince(from);
    assert.is(logged.length, 1);
    assert.match(logged[0]!, /ERROR svc::api: A GraphQL operation failed\. error="the stream broke"\n$/);
  } finally {
    client.close();
  }
});

test('graphql-transport-ws: a syntax error is an error message, not a closed socket', async () => {
  const from = lines.length;
  const client = await transportWs();
  try {
    client.send({ id: '1', type: 'subscribe', payload: { query: 'subscription { failing' } });
    const error = await client.next();
    assert.is(error.type, 'error');
    assert.match(error.payload[0].message, /^Syntax Error/);
    client.send({ id: '2', type: 'subscribe', payload: { query: '{ ok }' } });
    assert.equal(await client.next(), { id: '2', type: 'next', payload: { data: { ok: true } } });
    // The client's mistake is not the service's failure: nothing logged.
    assert.equal(logSince(from), []);
  } finally {
    client.close();
  }
});

test('both protocols refuse a query past the limits with their error message, and the socket goes on', async () => {
  const refusals = [
    // Checked before validation: that this schema has no `health` does not matter.
    [doublingFragments(), /^query selects too many fields: 1048576 once its fragments are expanded/],
    [nested(1000), /^query is nested too deeply: depth 1000, the limit is 32$/],
  ] as const;
  const transport = await transportWs();
  const legacy = await legacyWs();
  try {
    for (const [i, [query, message]] of refusals.entries()) {
      transport.send({ id: `t${i}`, type: 'subscribe', payload: { query } });
      const error = await transport.next();
      assert.is(error.type, 'error');
      assert.is(error.id, `t${i}`);
      assert.match(error.payload[0].message, message);
      legacy.send({ id: `l${i}`, type: 'start', payload: { query } });
      const legacyError = await legacy.nextWhere((message) => message.type !== 'ka');
      assert.is(legacyError.type, 'error');
      assert.is(legacyError.id, `l${i}`);
      assert.match(legacyError.payload[0].message, message);
    }
    transport.send({ id: 'ok', type: 'subscribe', payload: { query: '{ ok }' } });
    assert.equal(await transport.next(), { id: 'ok', type: 'next', payload: { data: { ok: true } } });
  } finally {
    transport.close();
    legacy.close();
  }
});

test('legacy graphql-ws: failing streams and resolvers reach the client and the log, on one line each', async () => {
  const from = lines.length;
  const client = await legacyWs();
  try {
    client.send({ id: '1', type: 'start', payload: { query: 'subscription { failing }' } });
    assert.equal(await client.next(), { id: '1', type: 'data', payload: { data: { failing: 1 } } });
    const error = await client.next();
    assert.equal([error.type, error.id, error.payload[0].message], ['error', '1', 'the stream broke']);
    client.send({ id: '2', type: 'start', payload: { query: '{ ok broken }' } });
    const data = await client.next();
    assert.equal(data.payload.data, { ok: true, broken: null });
    assert.is(data.payload.errors[0].message, 'the resolver broke');
    assert.equal(await client.next(), { id: '2', type: 'complete' });
    const logged = logSince(from);
    assert.is(logged.length, 2);
    assert.match(logged[0]!, /A GraphQL operation failed\. error="the stream broke"\n$/);
    assert.match(logged[1]!, /A GraphQL operation failed\. error="the resolver broke" path=broken\n$/);
  } finally {
    client.close();
  }
});

test('graphql-transport-ws: a message that is not JSON closes with 4400', async () => {
  const client = await transportWs();
  client.send('{"type":');
  assert.equal(await client.closed, { code: 4400, reason: 'Invalid message received' });
});

test('bytes that are not WebSocket frames close with 1002 and a log line', async () => {
  for (const protocol of ['graphql-transport-ws', 'graphql-ws']) {
    const from = lines.length;
    const client = await RawClient.open(url, [protocol]);
    // Opcode 0xF is reserved, and the frame is not masked as a client's must be.
    (client.ws as any)._socket.write(Buffer.from([0x8f, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]));
    assert.is((await client.closed).code, 1002);
    const logged = logSince(from);
    assert.is(logged.length, 1);
    assert.match(
      logged[0]!,
      /WARN svc::api: Closed a WebSocket connection on an error\. client=127\.0\.0\.1:\d+ error="Invalid WebSocket frame: /,
    );
  }
});

test('a message over 1 MiB closes with 1009', async () => {
  const client = await transportWs();
  client.send({ id: '1', type: 'subscribe', payload: { query: `{ ok } # ${'x'.repeat(1024 * 1024)}` } });
  assert.is((await client.closed).code, 1009);
});

for (const [protocol, connect, start] of [
  ['graphql-transport-ws', transportWs, (id: string, query: string) => ({ id, type: 'subscribe', payload: { query } })],
  ['graphql-ws', legacyWs, (id: string, query: string) => ({ id, type: 'start', payload: { query } })],
] as const) {
  test(`${protocol}: a client that stops reading is closed with 1008 once its unsent messages pass the limit`, async () => {
    const from = lines.length;
    const client = await connect();
    (client.ws as any)._socket.pause();
    // Each operation waits for its message to be written; 64 of them at 256 KiB outgrow the kernel's
    // buffers and then the limit.
    for (let id = 0; id < 64; id++) client.send(start(String(id), 'subscription { big(size: 262144) }'));
    await waitForLog(from, /does not read its messages/);
    (client.ws as any)._socket.resume();
    const closed = await client.closed;
    assert.equal(closed, {
      code: 1008,
      reason: `the client does not read its messages: more than ${MAX_BUFFERED_BYTES} bytes wait unsent`,
    });
    const logged = logSince(from);
    assert.is(logged.length, 1);
    assert.match(
      logged[0]!,
      /WARN svc::api: Closed a WebSocket client that does not read its messages\. client=127\.0\.0\.1:\d+ buffered_bytes=\d+\n$/,
    );
  });
}

async function waitForLog(from: number, pattern: RegExp, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!lines.slice(from).some((line) => pattern.test(line))) {
    if (Date.now() > deadline) throw new Error(`no log line matching ${pattern}; lines: ${lines.slice(from).join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('closing the server closes its sockets with 1001, and does not wait for a client that stopped reading', async () => {
  const reading = await transportWs();
  const paused = await legacyWs();
  (paused.ws as any)._socket.pause();
  await subscriptions.close();
  assert.equal(await reading.closed, { code: 1001, reason: 'the server is shutting down' });
  (paused.ws as any)._socket.resume();
  // Cut off before its close handshake: no close frame reached it, or a late one did.
  assert.ok([1001, 1006].includes((await paused.closed).code));
});

test.run();
