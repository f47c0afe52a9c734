// The legacy `graphql-ws` sub-protocol (Apollo's subscriptions-transport-ws) on a live instance, spoken by a
// raw client: connection_init/ack and ka, start/data/complete for subscriptions and queries, stop, error
// for requests that cannot run, connection_terminate, and a malformed message.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IDLE_PIPELINE, startApiInstance, type ApiInstance } from './support.js';
import { RawClient } from './raw-ws.js';
import { vectorDocument as reference } from '../../../cli/vector-documents.js';

let api: ApiInstance;
test.before(async () => {
  api = await startApiInstance(IDLE_PIPELINE);
});
test.after(async () => {
  await api.stop();
});

async function connected(): Promise<RawClient> {
  const client = await RawClient.open(api.ws, ['graphql-ws']);
  assert.is(client.ws.protocol, 'graphql-ws');
  client.send({ type: 'connection_init', payload: {} });
  assert.equal(await client.next(), { type: 'connection_ack' });
  assert.equal(await client.next(), { type: 'ka' });
  return client;
}

test('Vector heartbeat subscription: data per beat, then stop ends it with complete', async () => {
  const client = await connected();
  try {
    client.send({
      id: '1',
      type: 'start',
      payload: {
        query: reference('subscriptions/heartbeat.graphql'),
        variables: { interval: 50 },
        operationName: 'HeartbeatSubscription',
      },
    });
    for (let beat = 0; beat < 3; beat++) {
      const message = await client.next();
      assert.is(message.type, 'data');
      assert.is(message.id, '1');
      assert.ok(!Number.isNaN(Date.parse(message.payload.data.heartbeat.utc)));
    }
    client.send({ id: '1', type: 'stop' });
    await client.nextWhere((message) => message.type === 'complete' && message.id === '1');
    const afterComplete = client.messages.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(
      client.messages.slice(afterComplete).filter((message) => message.type === 'data'),
      [],
    );
  } finally {
    client.close();
  }
});

test('queries run over the socket: one data, then complete', async () => {
  const client = await connected();
  try {
    client.send({ id: 'q', type: 'start', payload: { query: reference('queries/health.graphql') } });
    assert.equal(await client.next(), { type: 'data', id: 'q', payload: { data: { health: true } } });
    assert.equal(await client.next(), { type: 'complete', id: 'q' });
    client.send({ id: 'm', type: 'start', payload: { query: reference('queries/meta_version_string.graphql') } });
    const meta = await client.next();
    assert.match(meta.payload.data.meta.versionString, /^\d+\.\d+\.\d+/);
    assert.equal(await client.next(), { type: 'complete', id: 'm' });
  } finally {
    client.close();
  }
});

test('a request that cannot run is an error message for its id; the connection stays usable', async () => {
  const client = await connected();
  try {
    client.send({ id: 'a', type: 'start', payload: { query: 'subscription { nope }' } });
    const unknown = await client.next();
    assert.is(unknown.type, 'error');
    assert.is(unknown.id, 'a');
    assert.match(unknown.payload[0].message, /Cannot query field "nope" on type "Subscription"/);
    client.send({ id: 'b', type: 'start', payload: { query: 'subscription { heartbeat(interval: 50) { utc }' } });
    const syntax = await client.next();
    assert.is(syntax.type, 'error');
    assert.match(syntax.payload[0].message, /^Syntax Error/);
    client.send({ id: 'c', type: 'start', payload: { variables: {} } });
    assert.equal(await client.next(), {
      type: 'error',
      id: 'c',
      payload: [{ message: 'the "start" payload: "query" must be a string' }],
    });
    // An argument the resolver refuses: the result carries the error, and the operation completes.
    client.send({ id: 'd', type: 'start', payload: { query: 'subscription { heartbeat(interval: 1) { utc } }' } });
    const refused = await client.next();
    assert.is(refused.type, 'data');
    assert.match(refused.payload.errors[0].message, /interval must be an integer of at least 10 ms, got 1/);
    assert.equal(await client.next(), { type: 'complete', id: 'd' });
    client.send({ id: 'e', type: 'start', payload: { query: '{ health }' } });
    assert.equal(await client.next(), { type: 'data', id: 'e', payload: { data: { health: true } } });
  } finally {
    client.close();
  }
});

test('a start with the id of a running subscription replaces it', async () => {
  const client = await connected();
  try {
    client.send({ id: '1', type: 'start', payload: { query: 'subscription { heartbeat(interval: 50) { utc } }' } });
    await client.nextWhere((message) => message.type === 'data');
    client.send({ id: '1', type: 'start', payload: { query: 'subscription { uptime(interval: 50) { seconds } }' } });
    await client.nextWhere((message) => message.payload?.data?.uptime !== undefined);
    // Once uptime runs, the heartbeat under the same id sends nothing more.
    const since = client.messages.length;
    for (let beat = 0; beat < 3; beat++)
      await client.nextWhere((message) => message.payload?.data?.uptime !== undefined);
    const later = client.messages.slice(since);
    assert.ok(
      later.every((message) => message.payload.data.uptime !== undefined),
      JSON.stringify(later),
    );
  } finally {
    client.close();
  }
});

test('connection_terminate closes the socket normally', async () => {
  const client = await connected();
  client.send({ id: '1', type: 'start', payload: { query: 'subscription { heartbeat(interval: 50) { utc } }' } });
  await client.next();
  client.send({ type: 'connection_terminate' });
  assert.equal(await client.closed, { code: 1000, reason: 'connection_terminate' });
});

test('a malformed message closes the socket with 1002 and says why', async () => {
  for (const [message, reason] of [
    ['not json', 'a message is not JSON'],
    ['[1]', 'a message is not a JSON object'],
    [{ type: 'subscribe', id: '1' }, 'unknown message type "subscribe"'],
    [{ type: 'start', payload: { query: '{ health }' } }, 'a "start" message needs an "id"'],
  ] as const) {
    const client = await RawClient.open(api.ws, ['graphql-ws']);
    client.send(message);
    assert.equal(await client.closed, { code: 1002, reason });
  }
  assert.is((await fetch(`${api.base}/health`)).status, 200);
});

test.run();
