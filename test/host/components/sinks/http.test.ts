// The http sink against a local node:http server: retries (500, 429, then 200) with the events delivered
// exactly once, Fibonacci backoff until a 503ing server recovers, headers/auth/compression seen by the server,
// batching by events, bytes and timeout, given-up requests counted, a kill counting what is pending, and the
// healthcheck; requests and healthchecks through a local proxy (forwarded, or tunnelled to an HTTPS target)
// unless `no_proxy` exempts the target. The waits between retries go through a test timer: no test sleeps
// through a backoff.

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { gunzipSync, inflateSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http, { buildHttpSink } from '../../../../host/components/sinks/http.js';
import type { RetryTimer } from '../../../../host/components/support/retry.js';
import { proxySchema } from '../../../../host/config/common.js';
import { BatchNotifier, type BatchStatus } from '../../../../host/topology/batch.js';
import { waitFor } from '../../../support/wait-for.js';
import { makeCertificates } from '../../support/certificates.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { localProxy } from '../../support/proxy-server.js';
import { steppedTimer } from '../../support/stepped-timer.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A server answering requests with the given statuses in turn (the last one repeats; `statuses` may be
 * changed while it runs). */
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

/** A timer that records each wait and ends it at once. */
function instantTimer() {
  const waits: number[] = [];
  const timer: RetryTimer = { sleep: async (ms) => void waits.push(ms), random: () => 0.5 };
  return { timer, waits };
}

/** The sink built with `options`, and the global and the component's own `proxy` tables when given. */
async function build(
  options: object,
  timer = instantTimer().timer,
  proxy: { global?: object; component?: object } = {},
) {
  const env = componentEnv(http);
  env.globals = { ...env.globals, proxy: proxySchema.parse(proxy.global ?? {}) };
  if (proxy.component) env.proxy = proxySchema.parse(proxy.component);
  const sink = await buildHttpSink(http.options.parse(options), env, timer);
  return { env, sink };
}

const events = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ message: `event ${from + i}` }));
const messages = (body: Buffer) =>
  (JSON.parse(body.toString()) as Array<{ message: string }>).map((event) => event.message);

test('500, then 429, then 200: retried with backoff, every event delivered exactly once; headers, auth and gzip on the wire', async () => {
  const target = await server([500, 429, 200]);
  const { timer, waits } = instantTimer();
  const { env, sink } = await build(
    {
      uri: target.uri,
      encoding: { codec: 'json' },
      compression: 'gzip',
      auth: { strategy: 'basic', user: 'ann', password: 's3cret' },
      request: { headers: { 'X-Custom': 'yes' } },
    },
    timer,
  );
  await sink.write(logBatch(events(3)));
  await sink.close();
  await target.close();
  assert.is(target.requests.length, 3);
  // Full jitter at random 0.5: half of the 1 s and 2 s backoffs, plus Vector's 1 ms.
  assert.equal(waits, [501, 1001]);
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
  const { timer, waits } = instantTimer();
  const { env, sink } = await build(
    { uri: target.uri, encoding: { codec: 'json' }, request: { retry_attempts: 2, retry_jitter_mode: 'None' } },
    timer,
  );
  await sink.write(logBatch(events(2)));
  await sink.close();
  assert.equal(waits, [1000, 2000]);
  assert.is(env.metrics.total('component_discarded_events_total', { intentional: 'false' }), 2);
  const dropped = env.logs.filter((record) => record.message === 'Events dropped');
  assert.is(dropped.length, 1);
  assert.is(dropped[0]!.fields.count, 2);
  assert.match(String(dropped[0]!.fields.reason), /ECONNREFUSED.*; retries exhausted$/);
});

test('acknowledgements: a batch split over requests is delivered once every request is; a 400 rejects it, retries exhausted error it', async () => {
  const statuses: BatchStatus[] = [];
  const acked = (n: number) => ({
    ...logBatch(events(n)),
    finalizer: new BatchNotifier((status) => statuses.push(status)),
  });
  const target = await server([200, 200, 400]);
  const { sink } = await build({ uri: target.uri, encoding: { codec: 'json' }, batch: { max_events: 4 } });
  const first = target.next();
  const second = target.next();
  await sink.write(acked(8));
  await first;
  // One of its two requests answered: not yet delivered.
  assert.equal(statuses, []);
  await second;
  await waitFor(
    () => statuses.length === 1,
    () => `an acknowledgement, got ${statuses.length}`,
  );
  assert.equal(statuses, ['delivered']);
  await sink.write(acked(2));
  await sink.close();
  await target.close();
  assert.equal(statuses, ['delivered', 'rejected']);

  const refused = await server([200]);
  await refused.close();
  const { sink: failing } = await build({
    uri: refused.uri,
    encoding: { codec: 'json' },
    request: { retry_attempts: 1 },
  });
  await failing.write(acked(2));
  await failing.close();
  assert.equal(statuses, ['delivered', 'rejected', 'errored']);
});

test('a server answering 503 until it recovers: Fibonacci backoff 1, 2, 3, 5 s, delivery on the first retry after recovery', async () => {
  const statuses = [503];
  const target = await server(statuses);
  const { timer, waits } = steppedTimer();
  const { env, sink } = await build(
    { uri: target.uri, encoding: { codec: 'json' }, batch: { max_events: 4 }, request: { retry_jitter_mode: 'None' } },
    timer,
  );
  await sink.write(logBatch(events(4)));
  for (let failures = 1; failures <= 4; failures++) {
    await waitFor(
      () => waits.length === failures,
      () => `wait ${failures} after ${target.requests.length} requests`,
    );
    assert.is(target.requests.length, failures);
    if (failures === 4) statuses[0] = 200;
    waits[failures - 1]!.release();
  }
  await sink.close();
  await target.close();
  assert.equal(
    waits.map((wait) => wait.ms),
    [1000, 2000, 3000, 5000],
  );
  assert.is(target.requests.length, 5);
  assert.equal(messages(target.requests[4]!.body), ['event 0', 'event 1', 'event 2', 'event 3']);
  assert.is(env.metrics.total('component_discarded_events_total'), 0);
  assert.is(env.logs.filter((record) => record.message === 'Retrying after error.').length, 4);
});

test('kill: stops retrying and returns every event written but neither delivered nor given up', async () => {
  const target = await server([503]);
  const { timer, waits } = steppedTimer();
  const { env, sink } = await build(
    { uri: target.uri, encoding: { codec: 'json' }, batch: { max_events: 3 }, request: { concurrency: 1 } },
    timer,
  );
  // 3 in a request waiting to retry, 3 waiting for the one request slot, 1 gathered.
  const written = sink.write(logBatch(events(7)));
  await waitFor(
    () => waits.length === 1,
    () => 'a first retry wait',
  );
  assert.is(sink.kill!(), 7);
  await written;
  await sink.close();
  await target.close();
  assert.is(target.requests.length, 1);
  // The caller counts what `kill` returns; the sink counted nothing itself.
  assert.is(env.metrics.total('component_discarded_events_total'), 0);
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

test('a uri template: events batched per rendered URI, one acknowledgement for the batch; an event without the field is dropped and counted; % stays percent-encoding', async () => {
  const target = await server([200]);
  const base = target.uri.replace('/ingest', '');
  const statuses: BatchStatus[] = [];
  const { env, sink } = await build({ uri: `${base}/t/{{ team }}?q=a%20b`, encoding: { codec: 'json' } });
  await sink.write({
    ...logBatch([
      { message: 'a1', team: 'a' },
      { message: 'b1', team: 'b' },
      { message: 'none' },
      { message: 'a2', team: 'a' },
    ]),
    finalizer: new BatchNotifier((status) => statuses.push(status)),
  });
  await sink.close();
  await target.close();
  const byUrl = Object.fromEntries(target.requests.map((request) => [request.url, messages(request.body)]));
  assert.equal(byUrl, { '/t/a?q=a%20b': ['a1', 'a2'], '/t/b?q=a%20b': ['b1'] });
  assert.equal(statuses, ['delivered']);
  assert.is(env.metrics.total('component_errors_total'), 1);
  assert.is(env.metrics.total('component_discarded_events_total'), 1);
  assert.ok(http.options.safeParse({ uri: 'http://x/a%2Fb', encoding: { codec: 'json' } }).success);
  assert.not.ok(http.options.safeParse({ uri: 'ftp://x/{{ team }}', encoding: { codec: 'json' } }).success);
});

test('a uri template: a URI written to again after its batch went out gets a new batch', async () => {
  const target = await server([200]);
  const base = target.uri.replace('/ingest', '');
  const { sink } = await build({
    uri: `${base}/t/{{ team }}`,
    encoding: { codec: 'json' },
    batch: { timeout_secs: 0.05 },
  });
  const sent = target.next();
  await sink.write(logBatch([{ message: 'a1', team: 'a' }]));
  await sent;
  await sink.write(logBatch([{ message: 'a2', team: 'a' }]));
  await sink.close();
  await target.close();
  assert.equal(
    target.requests.map((request) => [request.url, messages(request.body)]),
    [
      ['/t/a', ['a1']],
      ['/t/a', ['a2']],
    ],
  );
});

test('proxy.http: requests and the healthcheck are forwarded by the proxy, with its credentials; no_proxy and enabled: false go direct', async () => {
  const target = await server([200]);
  const proxy = await localProxy();
  const proxyUri = proxy.uri.replace('http://', 'http://ann:pa55@');
  const options = { uri: target.uri, encoding: { codec: 'json' } };
  try {
    const { sink } = await build(options, undefined, { component: { http: proxyUri } });
    await sink.write(logBatch(events(2)));
    await sink.healthcheck!({ uri: `${target.uri}/health` });
    await sink.close();
    assert.equal(proxy.requests.sort(), [`HEAD ${target.uri}/health`, `POST ${target.uri}`]);
    assert.equal(proxy.authorizations, Array(2).fill(`Basic ${Buffer.from('ann:pa55').toString('base64')}`));
    const posted = target.requests.find((request) => request.method === 'POST')!;
    assert.equal(messages(posted.body), ['event 0', 'event 1']);
    // The proxy takes the credentials off what it forwards.
    assert.is(posted.headers['proxy-authorization'], undefined);

    for (const component of [
      { http: proxy.uri, no_proxy: ['127.0.0.1'] },
      { http: proxy.uri, no_proxy: ['127.0.0.0/8'] },
      { http: proxy.uri, enabled: false },
      { https: proxy.uri },
    ]) {
      const direct = await build(options, undefined, { component });
      await direct.sink.write(logBatch(events(1)));
      await direct.sink.close();
    }
    assert.is(proxy.requests.length, 2, 'no_proxy, enabled: false and an https-only proxy go direct');
    assert.is(target.requests.length, 6);
  } finally {
    await proxy.close();
    await target.close();
  }
});

test('proxy.https: an https:// uri is tunnelled with CONNECT, the sink’s `tls` verifying the target inside it', async () => {
  const certificates = makeCertificates();
  const bodies: string[] = [];
  const target = createHttpsServer(
    { cert: readFileSync(certificates.serverCrt), key: readFileSync(certificates.serverKey) },
    (request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        bodies.push(body);
        response.end();
      });
    },
  );
  // The tunnel of a refused handshake stays open to the target: its sockets are ended at the close.
  const sockets: Socket[] = [];
  target.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const { port } = target.address() as AddressInfo;
  const proxy = await localProxy();
  const uri = `https://localhost:${port}/ingest`;
  try {
    const { sink, env } = await build(
      { uri, encoding: { codec: 'json' }, tls: { ca_file: certificates.ca } },
      undefined,
      {
        global: { https: proxy.uri },
      },
    );
    await sink.write(logBatch(events(1)));
    await sink.close();
    assert.equal(proxy.connects, [`localhost:${port}`]);
    assert.equal(
      bodies.map((body) => (JSON.parse(body) as Array<{ message: string }>)[0]!.message),
      ['event 0'],
    );
    assert.is(env.metrics.total('component_errors_total'), 0);
    // Without the CA the target's certificate is refused, through the tunnel as directly.
    const { sink: untrusting, env: refused } = await build(
      { uri, encoding: { codec: 'json' }, request: { retry_attempts: 0 } },
      undefined,
      { global: { https: proxy.uri } },
    );
    await untrusting.write(logBatch(events(1)));
    await untrusting.close();
    assert.is(proxy.connects.length, 2);
    assert.is(refused.metrics.total('component_errors_total'), 1);
    assert.is(bodies.length, 1);
  } finally {
    await proxy.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => target.close(resolve));
  }
});

test('proxy environment: HTTP_PROXY applies unless the global proxy or the component’s overrides it; http_proxy beats HTTP_PROXY', async () => {
  const target = await server([200]);
  const [fromEnv, fromLowercase, fromGlobal, fromComponent] = await Promise.all([
    localProxy(),
    localProxy(),
    localProxy(),
    localProxy(),
  ]);
  const options = { uri: target.uri, encoding: { codec: 'json' } };
  const send = async (proxy: Parameters<typeof build>[2]) => {
    const { sink } = await build(options, undefined, proxy);
    await sink.write(logBatch(events(1)));
    await sink.close();
  };
  const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy };
  try {
    process.env.HTTP_PROXY = fromEnv.uri;
    delete process.env.http_proxy;
    await send({});
    await send({ global: { http: fromGlobal.uri } });
    await send({ global: { http: fromGlobal.uri }, component: { http: fromComponent.uri } });
    // A component's no_proxy replaces the others' and the environment's proxy still applies to the rest.
    await send({ component: { no_proxy: ['127.0.0.1'] } });
    process.env.http_proxy = fromLowercase.uri;
    await send({});
    assert.equal(
      [fromEnv, fromLowercase, fromGlobal, fromComponent].map((proxy) => proxy.requests.length),
      [1, 1, 1, 1],
    );
    assert.is(target.requests.length, 5);
  } finally {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    await Promise.all([fromEnv, fromLowercase, fromGlobal, fromComponent, target].map((each) => each.close()));
  }
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
