// The API server as a client sees it: /health, POST /graphql (always 200 once processed, `errors` on
// failure, 400 for a body that is not a GraphQL request), subscriptions over WebSocket, a busy address,
// 503 while draining.

import { createServer, type AddressInfo } from 'node:net';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  IDLE_PIPELINE,
  doublingFragments,
  firstResults,
  nested,
  query,
  startApiInstance,
  type ApiInstance,
} from './support.js';
import { freePort, runSvc, waitFor, writeFiles } from '../support/svc.js';

let api: ApiInstance;
test.before(async () => {
  api = await startApiInstance(IDLE_PIPELINE);
});
test.after(async () => {
  await api.stop();
});

test('GET and HEAD /health answer 200 {"ok":true} while running', async () => {
  const get = await fetch(`${api.base}/health`);
  assert.is(get.status, 200);
  assert.equal(await get.json(), { ok: true });
  const head = await fetch(`${api.base}/health`, { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(await head.text(), '');
});

test('/health answers 503 {"ok":false} while the instance drains on shutdown', async () => {
  // A destination that never answers keeps the drain going after SIGTERM.
  const held: ServerResponse[] = [];
  const destination = createHttpServer((_request, response) => held.push(response)).listen(0, '127.0.0.1');
  await once(destination, 'listening');
  const { port } = destination.address() as AddressInfo;
  const draining = await startApiInstance(`sources:
  in:
    type: stdin
sinks:
  out:
    type: http
    inputs: [in]
    uri: http://127.0.0.1:${port}/
    encoding: { codec: text }
    batch: { max_events: 1, timeout_secs: 0.1 }
    healthcheck: { enabled: false }
`);
  try {
    draining.run.child.stdin!.write('hello\n');
    await waitFor(
      () => held.length > 0,
      () => 'the http sink to send its request',
    );
    draining.run.child.kill('SIGTERM');
    await draining.run.waitForStderr(/Shutting down/);
    const response = await fetch(`${draining.base}/health`);
    assert.is(response.status, 503);
    assert.equal(await response.json(), { ok: false });
  } finally {
    draining.run.child.kill('SIGKILL');
    await draining.run.exited;
    for (const response of held) response.destroy();
    destination.close();
  }
});

test('queries health and meta', async () => {
  const { status, body } = await query(api.base, '{ health meta { versionString hostname } }');
  assert.is(status, 200);
  assert.is(body.errors, undefined);
  assert.is(body.data.health, true);
  assert.match(body.data.meta.versionString, /^\d+\.\d+\.\d+/);
  assert.type(body.data.meta.hostname, 'string');
});

test('a failing query is still a 200, with errors', async () => {
  const syntax = await query(api.base, '{ health');
  assert.is(syntax.status, 200);
  assert.match(syntax.body.errors![0]!.message, /Syntax Error/);
  const unknown = await query(api.base, '{ nope }');
  assert.is(unknown.status, 200);
  assert.match(unknown.body.errors![0]!.message, /Cannot query field "nope"/);
});

test('a query past the limits is refused with an error naming the limit, and the server goes on', async () => {
  const doubling = await query(api.base, doublingFragments());
  assert.is(doubling.status, 200);
  assert.is(doubling.body.data, undefined);
  assert.equal(
    doubling.body.errors!.map((error) => error.message),
    ['query selects too many fields: 1048576 once its fragments are expanded, the limit is 10000'],
  );
  const deep = await query(api.base, nested(1000));
  assert.is(deep.status, 200);
  assert.equal(
    deep.body.errors!.map((error) => error.message),
    ['query is nested too deeply: depth 1000, the limit is 32'],
  );
  assert.equal((await query(api.base, '{ health }')).body.data, { health: true });
});

test('a body that is not a GraphQL request is a 400 with errors', async () => {
  const response = await fetch(`${api.base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"query":',
  });
  assert.is(response.status, 400);
  assert.ok(((await response.json()) as { errors: unknown[] }).errors.length > 0);
  const noQuery = await fetch(`${api.base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"variables":{}}',
  });
  assert.is(noQuery.status, 400);
});

test('subscriptions run over WebSocket: heartbeat and uptime', async () => {
  const beats = await firstResults(api.ws, 'subscription { heartbeat(interval: 50) { utc } }', {}, 2);
  assert.is(beats.length, 2);
  for (const beat of beats) assert.ok(!Number.isNaN(Date.parse(beat.data.heartbeat.utc)));
  const [uptime] = await firstResults(api.ws, 'subscription { uptime { seconds } }', {}, 1);
  assert.ok(uptime.data.uptime.seconds >= 0);
});

test('a subscription sent as a query over HTTP is an error', async () => {
  const { status, body } = await query(api.base, 'subscription { heartbeat { utc } }');
  assert.is(status, 200);
  assert.match(body.errors![0]!.message, /WebSocket/);
});

test('an address in use stops the start-up with an error naming it', async () => {
  const port = await freePort();
  const blocker = createServer().listen(port, '127.0.0.1');
  await once(blocker, 'listening');
  try {
    const dir = writeFiles({ 'svc.yaml': `api:\n  enabled: true\n  address: 127.0.0.1:${port}\n${IDLE_PIPELINE}` });
    const { status, stderr } = await runSvc(['--config', `${dir}/svc.yaml`], { stdin: '' });
    assert.is(status, 78);
    assert.match(
      stderr,
      new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} \\(api\\.address\\): the address is already in use`),
    );
  } finally {
    blocker.close();
  }
});

test('without api.graphql there is no /graphql, and /health stays', async () => {
  const other = await startApiInstance(IDLE_PIPELINE, 'graphql: false');
  try {
    assert.is((await fetch(`${other.base}/health`)).status, 200);
    assert.is((await fetch(`${other.base}/graphql`, { method: 'POST', body: '{}' })).status, 404);
  } finally {
    await other.stop();
  }
});

test.run();
