// The http sink against a local node:http server: retries (500, 429, then 200) with the events delivered
// exactly once, headers/auth/compression seen by the server, batching by events, bytes and timeout, given-up
// requests counted, and the healthcheck.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, inflateSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from '../../../../host/components/sinks/http.js';
import { componentEnv, logBatch } from '../../support/env.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A server answering requests with the given statuses in turn (the last one repeats). */
async function server(
  statuses: number[],
): Promise<{ uri: string; requests: Received[]; next: () => Promise<Received>; close: () => Promise<void> }> {
  const requests: Received[] = [];
  const waiting: Array<(request: Received) => void> = [];
  const instance: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      res.statusCode = statuses[Math.min(requests.length, statuses.length - 1)]!;
      requests.push(received);
      res.end();
      waiting.shift()?.(received);
    });
  });
  await new Promise<void>((resolve) => instance.listen(0, '127.0.0.1', resolve));
  const { port } = instance.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/ingest`,
    requests,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise((resolve) => instance.close(() => resolve())),
  };
}

async function build(options: object) {
  const env = componentEnv(http);
  const sink = await http.build(http.options.parse(options), env);
  return { env, sink };
}

const events = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ message: `event ${from + i}` }));
const messages = (body: Buffer) =>
  (JSON.parse(body.toString()) as Array<{ message: string }>).map((event) => event.message);

test('500, then 429, then 200: retried with backoff, every event delivered exactly once; headers, auth and gzip on the wire', async () => {
  const target = await server([500, 429, 200]);
  const { env, sink } = await build({
    uri: target.uri,
    encoding: { codec: 'json' },
    compression: 'gzip',
    auth: { strategy: 'basic', user: 'ann', password: 's3cret' },
    request: { headers: { 'X-Custom': 'yes' } },
  });
  await sink.write(logBatch(events(3)));
  await sink.close();
  await target.close();
  assert.is(target.requests.length, 3);
  const delivered = target.requests[2]!;
  assert.is(delivered.method, 'POST');
  assert.is(delivered.url, '/ingest');
  assert.is(delivered.headers['content-type'], 'application/json');
  assert.is(delivered.headers['content-encoding'], 'gzip');
  assert.is(delivered.headers['x-custom'], 'yes');
  assert.is(delivered.headers.authorization, `Basic ${Buffer.from('ann:s3cret').toString('base64')}`);
  assert.equal(messages(gunzipSync(delivered.body)), ['event 0', 'event 1', 'event 2']);
  assert.is(env.metrics.total('component_errors_total'), 0);
  assert.is(env.metrics.total('component_sent_bytes_total'), delivered.body.length);
});

test('batch.max_events splits a batch into requests', async () => {
  const target = await server([200]);
  const { sink } = await build({ uri: target.uri, encoding: { codec: 'json' }, batch: { max_events: 4 } });
  await sink.write(logBatch(events(10)));
  await sink.close();
  await target.close();
  assert.equal(
    target.requests.map((request) => messages(request.body).length),
    [4, 4, 2],
  );
  assert.equal(
    target.requests.flatMap((request) => messages(request.body)),
    events(10).map((event) => event.message),
  );
});

test('batch.max_bytes closes a batch before it grows past the limit', async () => {
  const target = await server([200]);
  // Each record of these events is 49 bytes in the batch: two fit in 100.
  const { sink } = await build({ uri: target.uri, encoding: { codec: 'text' }, batch: { max_bytes: 100 } });
  await sink.write(logBatch(events(5)));
  await sink.close();
  await target.close();
  assert.equal(
    target.requests.map((request) => request.body.toString()),
    ['event 0\nevent 1\n', 'event 2\nevent 3\n', 'event 4\n'],
  );
  assert.is(target.requests[0]!.headers['content-type'], 'text/plain');
});

test('batch.timeout_secs: batches written in a row gather into one request sent when the timeout ends', async () => {
  const target = await server([200]);
  const { sink } = await build({ uri: target.uri, encoding: { codec: 'json' }, batch: { timeout_secs: 0.2 } });
  const arrived = target.next();
  await sink.write(logBatch(events(2)));
  await sink.write(logBatch(events(2, 2)));
  const request = await arrived;
  assert.equal(messages(request.body), ['event 0', 'event 1', 'event 2', 'event 3']);
  await sink.close();
  await target.close();
  assert.is(target.requests.length, 1);
});

test('a 400 is not retried: the events are counted as errors and discarded', async () => {
  const target = await server([400]);
  const { env, sink } = await build({ uri: target.uri, encoding: { codec: 'json' } });
  await sink.write(logBatch(events(3)));
  await sink.close();
  await target.close();
  assert.is(target.requests.length, 1);
  assert.is(env.metrics.total('component_errors_total', { error_type: 'request_failed' }), 1);
  assert.is(env.metrics.total('component_discarded_events_total'), 3);
});

test('connection refused is retried up to retry_attempts, then given up', async () => {
  const target = await server([200]);
  await target.close();
  const { env, sink } = await build({
    uri: target.uri,
    encoding: { codec: 'json' },
    request: { retry_attempts: 1, retry_jitter_mode: 'None' },
  });
  await sink.write(logBatch(events(2)));
  await sink.close();
  assert.is(env.metrics.total('component_discarded_events_total'), 2);
  assert.ok(env.logs.some((record) => /retries exhausted/.test(record.message)));
});

test('json with newline framing sends NDJSON without the last newline; payload_prefix/suffix wrap the array; bearer auth; zlib', async () => {
  const target = await server([200]);
  const ndjson = await build({
    uri: target.uri,
    method: 'put',
    encoding: { codec: 'json' },
    framing: { method: 'newline_delimited' },
    auth: { strategy: 'bearer', token: 'tok' },
  });
  await ndjson.sink.write(logBatch(events(2)));
  await ndjson.sink.close();
  const wrapped = await build({
    uri: target.uri,
    encoding: { codec: 'json' },
    payload_prefix: '{"data":',
    payload_suffix: '}',
    compression: 'zlib',
  });
  await wrapped.sink.write(logBatch(events(2)));
  await wrapped.sink.close();
  await target.close();
  const [first, second] = target.requests;
  assert.is(first!.method, 'PUT');
  assert.is(first!.headers['content-type'], 'application/x-ndjson');
  assert.is(first!.headers.authorization, 'Bearer tok');
  assert.is(first!.body.toString(), '{"message":"event 0"}\n{"message":"event 1"}');
  assert.is(second!.headers['content-encoding'], 'deflate');
  assert.is(inflateSync(second!.body).toString(), '{"data":[{"message":"event 0"},{"message":"event 1"}]}');
});

test('zstd bodies decode to the events', async () => {
  const target = await server([200]);
  const { sink } = await build({ uri: target.uri, encoding: { codec: 'json' }, compression: 'zstd' });
  await sink.write(logBatch(events(2)));
  await sink.close();
  await target.close();
  // The sink initialised the zstd module (a second init() breaks the library's decompress).
  const { decompress } = await import('@bokuweb/zstd-wasm');
  assert.is(target.requests[0]!.headers['content-encoding'], 'zstd');
  assert.equal(messages(Buffer.from(decompress(target.requests[0]!.body))), ['event 0', 'event 1']);
});

test('healthcheck: HEAD to healthcheck.uri; healthy without one', async () => {
  const target = await server([204]);
  const { sink } = await build({
    uri: target.uri,
    encoding: { codec: 'json' },
    auth: { strategy: 'bearer', token: 'tok' },
  });
  await sink.healthcheck!({});
  assert.is(target.requests.length, 0);
  await sink.healthcheck!({ uri: `${target.uri}/health` });
  assert.is(target.requests[0]!.method, 'HEAD');
  assert.is(target.requests[0]!.headers.authorization, 'Bearer tok');
  await target.close();
  assert.ok(await rejects(sink.healthcheck!({ uri: `${target.uri}/health` })));
  await sink.close();
});

test('options: Vector defaults; an invalid payload wrapper and a bad uri are errors', () => {
  const parsed = http.options.parse({ uri: 'http://localhost/', encoding: { codec: 'json' } });
  assert.is(parsed.method, 'post');
  assert.equal(parsed.batch, { max_bytes: 10_000_000, timeout_secs: 1 });
  assert.is(parsed.request.retry_initial_backoff_secs, 1);
  assert.is(parsed.request.retry_max_duration_secs, 30);
  assert.is(parsed.request.timeout_secs, 60);
  assert.not.ok(
    http.options.safeParse({ uri: 'http://localhost/', encoding: { codec: 'json' }, payload_prefix: '{"data":' })
      .success,
  );
  assert.not.ok(http.options.safeParse({ uri: 'localhost:80', encoding: { codec: 'json' } }).success);
});

/** Whether the promise rejects. */
function rejects(promise: Promise<unknown>): Promise<boolean> {
  return promise.then(
    () => false,
    () => true,
  );
}

test.run();
