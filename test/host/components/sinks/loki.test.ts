// The loki sink against a local server that decodes what Loki would: the snappy-compressed protobuf push
// request (with Vector's push.proto) and the JSON one (plain and gzip). Labels (templated keys, `*`
// expansion, removed fields), structured metadata, timestamps, tenants, out-of-order actions, retries, a
// rejected request, acknowledgements and the healthcheck.

import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type * as Protobuf from 'protobufjs';
import loki, { buildLokiSink } from '../../../../host/components/sinks/loki.js';
import { Timestamp } from '../../../../runtime/index.js';
import { BatchNotifier, type BatchStatus } from '../../../../host/topology/batch.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { assertSigned } from '../../support/signature.js';
import { type Answer, httpTarget, instantTimer, type Received } from '../../support/http-target.js';
import { waitFor } from '../../../support/wait-for.js';

const require = createRequire(import.meta.url);
const protobuf = require('protobufjs') as typeof Protobuf;
const snappy = require('snappyjs') as { uncompress(bytes: Uint8Array): Uint8Array };
const pushRequest = protobuf
  .loadSync(new URL('../../../../../host/components/sinks/loki/push.proto', import.meta.url).pathname)
  .lookupType('logproto.PushRequest');

async function build(options: object, timer = instantTimer().timer) {
  const env = componentEnv(loki);
  const sink = await buildLokiSink(loki.options.parse(options), env, timer);
  return { env, sink };
}

interface Stream {
  labels: string;
  entries: Array<{ ts: string; line: string; metadata: Record<string, string> }>;
}

/** The streams of a protobuf push request, as Loki decodes it. */
function protobufStreams(request: Received): Stream[] {
  assert.is(request.headers['content-type'], 'application/x-protobuf');
  assert.is(request.headers['content-encoding'], 'snappy');
  const decoded = pushRequest.toObject(pushRequest.decode(snappy.uncompress(request.body)), { longs: String }) as {
    streams: Array<{
      labels: string;
      entries: Array<{
        timestamp: { seconds: string; nanos?: number };
        line: string;
        structuredMetadata?: Array<{ name: string; value: string }>;
      }>;
    }>;
  };
  return decoded.streams.map((stream) => ({
    labels: stream.labels,
    entries: stream.entries.map((entry) => ({
      ts: (BigInt(entry.timestamp.seconds) * 1_000_000_000n + BigInt(entry.timestamp.nanos ?? 0)).toString(),
      line: entry.line,
      metadata: Object.fromEntries((entry.structuredMetadata ?? []).map(({ name, value }) => [name, value])),
    })),
  }));
}

interface JsonPush {
  streams: Array<{ stream: Record<string, string>; values: Array<[string, string, Record<string, string>]> }>;
}

const at = (seconds: number) => new Timestamp(BigInt(seconds) * 1_000_000_000n + 5n);
const nanos = (seconds: number) => (BigInt(seconds) * 1_000_000_000n + 5n).toString();

test('snappy protobuf push: streams by labels (templated keys, `*` expansion, static over expanded), entries sorted by time, timestamp removed from the line, structured metadata', async () => {
  const target = await httpTarget();
  const { env, sink } = await build({
    endpoint: `${target.uri}/base/`,
    encoding: { codec: 'json' },
    labels: {
      app: '{{ app }}',
      '{{ kind }}': 'fixed',
      'pod_*': '{{ pod }}',
      '*': '{{ extra }}',
      zone: 'static zone',
    },
    structured_metadata: { trace_id: '{{ trace }}' },
  });
  const event = (message: string, app: string, pod: object, extra: object, trace: string) => ({
    app,
    extra,
    kind: 'tier',
    message,
    pod,
    trace,
  });
  const second = event('second', 'web', { Name: 'p-1', n: 2 }, { zone: 'x' }, 't2');
  const first = event('first', 'web', { Name: 'p-1', n: 2 }, { zone: 'x' }, 't1');
  const other = event('other', 'db', { Name: 'p-2', n: 3 }, {}, 't3');
  await sink.write(
    logBatch([
      { ...second, timestamp: at(20) },
      { ...first, timestamp: at(10) },
      { ...other, timestamp: at(15) },
    ]),
  );
  await sink.close();
  await target.close();
  assert.is(target.requests.length, 1);
  const request = target.requests[0]!;
  assert.is(request.method, 'POST');
  assert.is(request.url, '/base/loki/api/v1/push');
  assert.is(request.headers['x-scope-orgid'], undefined);
  // The line: the event without its timestamp.
  assert.equal(protobufStreams(request), [
    {
      labels: '{app="web", pod_n="2", pod_name="p-1", tier="fixed", zone="static zone"}',
      entries: [
        { ts: nanos(10), line: JSON.stringify(first), metadata: { trace_id: 't1' } },
        { ts: nanos(20), line: JSON.stringify(second), metadata: { trace_id: 't2' } },
      ],
    },
    {
      labels: '{app="db", pod_n="3", pod_name="p-2", tier="fixed", zone="static zone"}',
      entries: [{ ts: nanos(15), line: JSON.stringify(other), metadata: { trace_id: 't3' } }],
    },
  ]);
  assert.is(env.metrics.total('component_errors_total'), 0);
  assert.is(env.metrics.total('component_sent_bytes_total'), request.body.length);
});

test('label sets the same texts render to are one stream across events; a time before 1970 has nanoseconds from the second before', async () => {
  const target = await httpTarget();
  const { sink } = await build({
    endpoint: target.uri,
    encoding: { codec: 'text' },
    labels: { app: '{{ app }}', path: 'x,y\\z' },
    batch: { max_events: 4 },
  });
  await sink.write(
    logBatch([
      { message: 'one', app: 'web', timestamp: at(3) },
      { message: 'two', app: 'db', timestamp: at(-2) },
      { message: 'three', app: 'web', timestamp: at(1) },
      { message: 'four', app: 'db', timestamp: new Timestamp(-1n) },
    ]),
  );
  await sink.close();
  await target.close();
  const request = target.requests[0]!;
  assert.equal(protobufStreams(request), [
    {
      labels: '{app="web", path="x,y\\z"}',
      entries: [
        { ts: nanos(1), line: 'three', metadata: {} },
        { ts: nanos(3), line: 'one', metadata: {} },
      ],
    },
    {
      labels: '{app="db", path="x,y\\z"}',
      entries: [
        { ts: nanos(-2), line: 'two', metadata: {} },
        { ts: '-1', line: 'four', metadata: {} },
      ],
    },
  ]);
  const decoded = pushRequest.decode(snappy.uncompress(request.body)) as unknown as {
    streams: Array<{ entries: Array<{ timestamp: { nanos: number } }> }>;
  };
  assert.equal(
    decoded.streams[1]!.entries.map((entry) => entry.timestamp.nanos),
    [5, 999_999_999],
  );
});

test('JSON push (compression none and gzip): label and metadata fields removed, the timestamp kept when asked, tenants per X-Scope-OrgID, no labels: agent="vector"', async () => {
  const target = await httpTarget();
  const { env, sink } = await build({
    endpoint: target.uri,
    encoding: { codec: 'json' },
    compression: 'none',
    tenant_id: '{{ tenant }}',
    labels: { app: '{{ app }}' },
    remove_label_fields: true,
    structured_metadata: { user: '{{ user }}' },
    remove_structured_metadata_fields: true,
    remove_timestamp: false,
  });
  await sink.write(
    logBatch([
      { message: 'a', app: 'web', user: 'ann', tenant: 'one', timestamp: at(1) },
      { message: 'b', app: 'web', user: 'bob', tenant: 'two', timestamp: at(2) },
      { message: 'c', user: 'cy', tenant: 'one', timestamp: at(3) },
    ]),
  );
  await sink.close();
  const byTenant = new Map(target.requests.map((request) => [request.headers['x-scope-orgid'], request]));
  assert.equal([...byTenant.keys()].sort(), ['one', 'two']);
  const one = byTenant.get('one')!;
  assert.is(one.headers['content-type'], 'application/json');
  assert.is(one.headers['content-encoding'], undefined);
  const stamp = (seconds: number) => at(seconds).toString();
  assert.equal(JSON.parse(one.body.toString()) as JsonPush, {
    streams: [
      {
        stream: { app: 'web' },
        values: [[nanos(1), JSON.stringify({ message: 'a', tenant: 'one', timestamp: stamp(1) }), { user: 'ann' }]],
      },
      {
        stream: { agent: 'vector' },
        values: [[nanos(3), JSON.stringify({ message: 'c', tenant: 'one', timestamp: stamp(3) }), { user: 'cy' }]],
      },
    ],
  });
  // The event without `app` rendered no label: an error, and Vector's default label.
  assert.ok(env.logs.some((record) => record.message === 'Event had no labels. Adding default `agent` label.'));

  const { sink: gzipped } = await build({
    endpoint: target.uri,
    encoding: { codec: 'text' },
    compression: 'gzip',
    labels: { source: 'svc' },
  });
  await gzipped.write(logBatch([{ message: 'zipped', timestamp: at(4) }]));
  await gzipped.close();
  await target.close();
  const zipped = target.requests.at(-1)!;
  assert.is(zipped.headers['content-encoding'], 'gzip');
  assert.equal(JSON.parse(gunzipSync(zipped.body).toString()) as JsonPush, {
    streams: [{ stream: { source: 'svc' }, values: [[nanos(4), 'zipped', {}]] }],
  });
});

test('out_of_order_action: drop leaves out (and counts) entries older than the newest sent, rewrite_timestamp moves them to it', async () => {
  const linesOf = (request: Received) => protobufStreams(request).flatMap((stream) => stream.entries);
  for (const action of ['drop', 'rewrite_timestamp', 'accept'] as const) {
    const target = await httpTarget();
    const { env, sink } = await build({
      endpoint: target.uri,
      encoding: { codec: 'text' },
      labels: { app: 'x' },
      out_of_order_action: action,
      batch: { max_events: 2 },
    });
    await sink.write(
      logBatch([
        { message: 'new', timestamp: at(50) },
        { message: 'newer', timestamp: at(60) },
        { message: 'late', timestamp: at(40) },
      ]),
    );
    await sink.close();
    await target.close();
    const entries = target.requests.flatMap(linesOf).map((entry) => [entry.line, entry.ts]);
    const expected = {
      drop: [
        ['new', nanos(50)],
        ['newer', nanos(60)],
      ],
      rewrite_timestamp: [
        ['new', nanos(50)],
        ['newer', nanos(60)],
        ['late', nanos(60)],
      ],
      accept: [
        ['new', nanos(50)],
        ['newer', nanos(60)],
        ['late', nanos(40)],
      ],
    }[action];
    assert.equal(entries, expected, action);
    assert.is(
      env.metrics.total('component_discarded_events_total', { intentional: 'true' }),
      action === 'drop' ? 1 : 0,
    );
    assert.is(env.metrics.total('rewritten_timestamp_events_total'), action === 'rewrite_timestamp' ? 1 : 0);
  }
});

test('500 and 429 retried until delivered once; a 400 rejects the batch; acknowledgements follow the server', async () => {
  const statuses: BatchStatus[] = [];
  const acked = (message: string) => ({
    ...logBatch([{ message, timestamp: at(1) }]),
    finalizer: new BatchNotifier((status) => statuses.push(status)),
  });
  let release: (answer: Answer) => void = () => {};
  const answers = [500, 429, 'held', 400];
  const target = await httpTarget((_request, index) => {
    const answer = answers[index]!;
    if (answer === 'held') return new Promise<Answer>((resolve) => (release = resolve));
    return { status: answer as number };
  });
  const { timer, waits } = instantTimer();
  const { env, sink } = await build({ endpoint: target.uri, encoding: { codec: 'text' }, labels: { app: 'x' } }, timer);
  await sink.write(acked('kept'));
  await waitFor(
    () => target.requests.length === 3,
    () => `3 requests, got ${target.requests.length}`,
  );
  // Retried twice, the third request not answered yet: no acknowledgement.
  assert.equal(waits, [501, 1001]);
  assert.equal(statuses, []);
  release({ status: 204 });
  await waitFor(
    () => statuses.length === 1,
    () => 'the acknowledgement',
  );
  assert.equal(statuses, ['delivered']);
  await sink.write(acked('refused'));
  await sink.close();
  await target.close();
  assert.equal(statuses, ['delivered', 'rejected']);
  assert.equal(
    target.requests.map((request) => protobufStreams(request)[0]!.entries[0]!.line),
    ['kept', 'kept', 'kept', 'refused'],
  );
  assert.is(env.metrics.total('component_errors_total', { error_type: 'request_failed' }), 1);
  assert.is(env.metrics.total('component_discarded_events_total', { intentional: 'false' }), 1);
});

test('healthcheck: /ready, else the endpoint where /ready is not found, with the credentials of the endpoint URI; another status fails it', async () => {
  const target = await httpTarget((request) => ({ status: request.url === '/ready' ? 404 : 200 }));
  const endpoint = target.uri.replace('//', '//ann:secret@');
  const { sink } = await build({ endpoint, encoding: { codec: 'json' }, labels: { a: 'b' } });
  await sink.healthcheck!({});
  const basic = `Basic ${Buffer.from('ann:secret').toString('base64')}`;
  assert.equal(
    target.requests.map((request) => `${request.method} ${request.url} ${request.headers.authorization}`),
    [`GET /ready ${basic}`, `GET / ${basic}`],
  );
  await sink.close();
  await target.close();
  const failing = await httpTarget(() => ({ status: 503 }));
  const { sink: unhealthy } = await build({ endpoint: failing.uri, encoding: { codec: 'json' }, labels: { a: 'b' } });
  try {
    await unhealthy.healthcheck!({});
    assert.unreachable('healthy');
  } catch (error) {
    assert.is((error as Error).message, 'A non-successful status returned: 503');
  }
  await unhealthy.close();
  await failing.close();
});

test('options: labels required and at least one, label names checked unless templated; compression snappy by default', () => {
  const issues = (options: object) =>
    loki.options
      .safeParse({ endpoint: 'http://localhost:3100', encoding: { codec: 'json' }, ...options })
      .error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  assert.equal(issues({ labels: {} }), ['labels: `labels` must include at least one label']);
  assert.equal(issues({ labels: { '0ab': 'x', ok_: 'y', 'pre_*': 'z', '*': 'w', '{{ f }}': 'v' } }), [
    'labels.0ab: invalid label name "0ab": expected [A-Za-z_][A-Za-z0-9_]*, a prefix ending in "*", or "*"',
  ]);
  assert.equal(
    issues({ endpoint: 'http://a:b@localhost:3100', auth: { strategy: 'bearer', token: 't' }, labels: { a: 'b' } }),
    ['auth: Two authorization credentials was provided.'],
  );
  const parsed = loki.options.parse({
    endpoint: 'http://localhost:3100',
    encoding: { codec: 'json' },
    labels: { a: 'b' },
  });
  assert.is(parsed.compression, 'snappy');
  assert.is(parsed.out_of_order_action, 'accept');
  assert.is(parsed.path, '/loki/api/v1/push');
  assert.equal(parsed.batch, { max_bytes: 1_000_000, max_events: 100_000, timeout_secs: 1 });
});

test('auth.strategy aws: pushes and the healthcheck signed for auth.service in auth.auth.region; no region is a build error', async () => {
  const target = await httpTarget(() => ({ status: 200 }));
  const keys = { access_key_id: 'KEY', secret_access_key: 'SECRET', region: 'eu-central-1' };
  const { sink } = await build({
    endpoint: target.uri,
    encoding: { codec: 'json' },
    labels: { app: 'web' },
    auth: { strategy: 'aws', auth: keys, service: 'execute-api' },
  });
  await sink.healthcheck!({});
  await sink.write(logBatch([{ message: 'signed' }]));
  await sink.close();
  await target.close();
  assert.equal(
    target.requests.map((request) => `${request.method} ${request.url}`),
    ['GET /ready', 'POST /loki/api/v1/push'],
  );
  const signer = { accessKeyId: 'KEY', secretAccessKey: 'SECRET' };
  for (const request of target.requests) assertSigned(request, signer, 'eu-central-1', 'execute-api');

  const unsigned = await build({
    endpoint: 'http://127.0.0.1:1',
    encoding: { codec: 'json' },
    labels: { app: 'web' },
    auth: { strategy: 'aws', auth: { access_key_id: 'KEY', secret_access_key: 'SECRET' }, service: 'execute-api' },
  }).catch((error: Error) => error.message);
  assert.match(String(unsigned), /^auth\.auth\.region: could not determine the region/);
});

test.run();
