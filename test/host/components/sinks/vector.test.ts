// The vector sink against svc's vector source (Vector's gRPC protocol v2): logs and metrics arrive exactly
// as sent (every value kind, metadata, every metric value type); a batch is delivered once the source
// answered; with several endpoints, requests spread over the healthy ones, and one that stops serving is left
// while its requests are retried on another; the options Vector checks are refused with its messages.

import { once } from 'node:events';
import { createServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeBatch } from '../../../../abi/batch.js';
import { IntegralFloat } from '../../../../abi/codec.js';
import { Timestamp } from '../../../../abi/values.js';
import type { SourceDefinition } from '../../../../host/components/component.js';
import vector, { buildVectorSink } from '../../../../host/components/sinks/vector.js';
import vectorSource from '../../../../host/components/sources/vector.js';
import { type Metric, metricEvent, readMetric } from '../../../../host/components/support/metric.js';
import { VECTOR_PROTO } from '../../../../host/package-files.js';
import { BatchNotifier, type BatchStatus, type EventBatch, toBatch } from '../../../../host/topology/batch.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { buildSource, runSource, vectorNamespaceEnv, type Collected } from '../../support/sources.js';
import { makeCertificates } from '../../support/certificates.js';
import { freePort } from '../../support/svc.js';
import { steppedTimer } from '../../support/stepped-timer.js';
import { waitFor } from '../../../support/wait-for.js';

/** A vector source listening on a free port, its events collected. */
async function listening(
  options: object = {},
): Promise<{ address: string; collected: Collected; stop(): Promise<void> }> {
  const address = `127.0.0.1:${await freePort()}`;
  const source = await buildSource(
    vectorSource as SourceDefinition,
    { address, ...options },
    vectorNamespaceEnv('vector'),
  );
  const collected = runSource(source);
  return {
    address,
    collected,
    async stop() {
      collected.shutdown.abort();
      await collected.done;
      await source.acknowledged?.();
    },
  };
}

function tracked(batch: EventBatch): { batch: EventBatch; status: () => BatchStatus | undefined } {
  let status: BatchStatus | undefined;
  return { batch: { ...batch, finalizer: new BatchNotifier((given) => (status = given)) }, status: () => status };
}

const sinkOptions = (options: object) => vector.options.parse({ batch: { timeout_secs: 0.01 }, ...options });

test('logs: every value kind and the metadata arrive exactly; the batch is delivered once answered', async () => {
  const source = await listening();
  const env = componentEnv(vector);
  const sink = await buildVectorSink(sinkOptions({ address: source.address }), env, steppedTimer().timer);
  try {
    const events = [
      {
        message: 'hello',
        bytes: new Uint8Array([0xff, 0x00, 0x41]),
        integer: 2n ** 62n + 1n,
        negative: -5n,
        float: new IntegralFloat(2),
        fraction: 0.25,
        yes: true,
        nothing: null,
        at: new Timestamp(-1_234_567_890_123n),
        nested: { list: [1n, 'two', [new IntegralFloat(3.5)]], empty: {} },
      },
      'a string as the whole event',
      7n,
    ];
    const input = toBatch(
      encodeBatch(
        events.map((event, i) => ({ event, metadata: { mine: { index: BigInt(i) } } })),
        0,
      ),
    );
    const { batch, status } = tracked(input);
    await sink.write(batch);
    await waitFor(
      () => status() !== undefined,
      () => 'no status',
    );
    assert.is(status(), 'delivered');
    await source.collected.waitFor(3);
    const [first, second, third] = source.collected.events as unknown[];
    assert.equal(first, {
      message: 'hello',
      bytes: new Uint8Array([0xff, 0x00, 0x41]),
      integer: 2n ** 62n + 1n,
      negative: -5n,
      float: 2,
      fraction: 0.25,
      yes: true,
      nothing: null,
      at: new Timestamp(-1_234_567_890_123n),
      nested: { list: [1n, 'two', [3.5]], empty: {} },
    });
    assert.is(second, 'a string as the whole event');
    assert.is(third, 7n);
    source.collected.metadata.forEach((metadata, i) => {
      const { vector: stamp, mine } = metadata as { vector: Record<string, unknown>; mine: unknown };
      assert.equal(mine, { index: BigInt(i) });
      assert.is(stamp.source_type, 'vector');
      assert.ok(stamp.ingest_timestamp instanceof Timestamp);
    });
    assert.ok(env.metrics.total('component_sent_bytes_total') > 0);
  } finally {
    await sink.close();
    await source.stop();
  }
});

test('metrics: every value type of the native model arrives exactly', async () => {
  const source = await listening();
  const sink = await buildVectorSink(
    sinkOptions({ address: source.address }),
    componentEnv(vector),
    steppedTimer().timer,
  );
  const at = 1_700_000_000_123_456_789n;
  const metrics: Metric[] = [
    {
      name: 'hits',
      namespace: 'app',
      tags: { host: 'a', multi: ['x', 'y'], bare: null },
      timestamp: at,
      interval_ms: 10_000,
      kind: 'incremental',
      value: { type: 'counter', value: 3 },
    },
    { name: 'load', kind: 'absolute', value: { type: 'gauge', value: 0.5 } },
    { name: 'users', kind: 'incremental', value: { type: 'set', values: ['ann', 'bob'] } },
    {
      name: 'latency',
      kind: 'incremental',
      value: {
        type: 'distribution',
        samples: [
          { value: 1.5, rate: 2 },
          { value: 3, rate: 1 },
        ],
        statistic: 'summary',
      },
    },
    {
      name: 'sizes',
      kind: 'absolute',
      value: {
        type: 'aggregated_histogram',
        buckets: [
          { upper_limit: 1, count: 2 },
          { upper_limit: 10, count: 5 },
        ],
        count: 7,
        sum: 30.5,
      },
    },
    {
      name: 'times',
      kind: 'absolute',
      value: {
        type: 'aggregated_summary',
        quantiles: [
          { quantile: 0.5, value: 2 },
          { quantile: 0.99, value: 9.5 },
        ],
        count: 10,
        sum: 40,
      },
    },
  ];
  const sketch = {
    AgentDDSketch: { bins: { k: [1n, 1338n], n: [2n, 1n] }, count: 3n, min: 1, max: 5.5, sum: 8, avg: 8 / 3 },
  };
  try {
    const events = [
      ...metrics.map((metric) => metricEvent(metric)),
      { kind: 'metric' as const, event: { name: 'dd', kind: 'incremental', sketch } },
    ];
    const { batch, status } = tracked(toBatch(encodeBatch(events, 0)));
    await sink.write(batch);
    await source.collected.waitFor(events.length);
    await waitFor(
      () => status() === 'delivered',
      () => `status ${status()}`,
    );
    assert.equal(
      source.collected.kinds,
      events.map(() => 'metric'),
    );
    assert.equal(
      source.collected.events.slice(0, metrics.length).map((event) => readMetric(event as never)),
      metrics,
    );
    assert.equal((source.collected.events.at(-1) as { sketch: unknown }).sketch, {
      AgentDDSketch: { bins: { k: [1n, 1338n], n: [2n, 1n] }, count: 3n, min: 1, max: 5.5, sum: 8, avg: 8 / 3 },
    });
  } finally {
    await sink.close();
    await source.stop();
  }
});

test('several endpoints: requests spread over both; one stopped is left and its requests retried on the other', async () => {
  const [a, b] = await Promise.all([listening(), listening()]);
  const { timer, waits } = steppedTimer();
  const env = componentEnv(vector);
  const sink = await buildVectorSink(
    sinkOptions({
      routing: { endpoints: [a.address, `http://${b.address}`] },
      request: { concurrency: 1 },
      compression: 'gzip',
    }),
    env,
    timer,
  );
  let sent = 0;
  /** One request per event: each written once the one before was delivered. */
  const send = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const { batch, status } = tracked(logBatch([{ message: `line ${sent++}` }]));
      await sink.write(batch);
      await waitFor(
        () => {
          // A request sent to a stopped endpoint fails, waits its backoff (ended here at once), and goes to
          // the other.
          for (const wait of waits.splice(0)) wait.release();
          return status() === 'delivered';
        },
        () => `status ${status()}`,
      );
    }
  };
  try {
    await sink.healthcheck!({});
    await send(4);
    assert.ok(a.collected.events.length > 0 && b.collected.events.length > 0, 'both endpoints took requests');
    await a.stop();
    await send(4);
    const all = [...a.collected.events, ...b.collected.events].map((event) => event.message).sort();
    assert.equal(all, Array.from({ length: 8 }, (_, i) => `line ${i}`).sort());
    assert.is(env.metrics.total('component_discarded_events_total'), 0);
  } finally {
    await sink.close();
    await b.stop();
  }
});

test('tls: mutual TLS between the sink and the source; a client certificate of another CA is refused', async () => {
  const certificates = makeCertificates();
  const source = await listening({
    tls: {
      enabled: true,
      crt_file: certificates.serverCrt,
      key_file: certificates.serverKey,
      ca_file: certificates.ca,
      verify_certificate: true,
    },
  });
  const sinkWith = (crt: string, key: string) =>
    buildVectorSink(
      sinkOptions({
        // By name: a TLS server name cannot be an IP address.
        address: source.address.replace('127.0.0.1', 'localhost'),
        tls: { enabled: true, ca_file: certificates.ca, crt_file: crt, key_file: key },
      }),
      componentEnv(vector),
      steppedTimer().timer,
    );
  const sink = await sinkWith(certificates.clientCrt, certificates.clientKey);
  const stranger = await sinkWith(certificates.strangerCrt, certificates.strangerKey);
  try {
    await sink.healthcheck!({});
    const { batch, status } = tracked(logBatch([{ message: 'secret' }]));
    await sink.write(batch);
    await waitFor(
      () => status() === 'delivered',
      () => `status ${status()}`,
    );
    assert.equal(
      source.collected.events.map((event) => event.message),
      ['secret'],
    );
    await stranger.healthcheck!({}).then(
      () => assert.unreachable('a certificate of another CA'),
      (error: Error) => assert.match(error.message, 'HealthCheck failed'),
    );
  } finally {
    await Promise.all([sink.close(), stranger.close()]);
    await source.stop();
  }
});

test('failover: one endpoint at a time, the next once it fails, kept while it works', async () => {
  const [a, b] = await Promise.all([listening(), listening()]);
  await a.stop();
  const { timer, waits } = steppedTimer();
  const sink = await buildVectorSink(
    sinkOptions({ routing: { endpoints: [a.address, b.address], strategy: 'failover' } }),
    componentEnv(vector),
    timer,
  );
  let retries = 0;
  try {
    for (const message of ['one', 'two', 'three']) {
      const { batch, status } = tracked(logBatch([{ message }]));
      await sink.write(batch);
      await waitFor(
        () => {
          for (const wait of waits.splice(0)) {
            retries++;
            wait.release();
          }
          return status() === 'delivered';
        },
        () => `status ${status()}`,
      );
    }
    assert.equal(
      b.collected.events.map((event) => event.message),
      ['one', 'two', 'three'],
    );
    assert.is(retries, 1, 'only the first request met the stopped endpoint');
    await sink.healthcheck!({}).then(
      () => assert.unreachable('the first endpoint is down'),
      (error: Error) => assert.match(error.message, a.address),
    );
  } finally {
    await sink.close();
    await b.stop();
  }
});

test('wire: the request as Vector writes it, gzip-compressed when asked; a final status rejects the batch', async () => {
  const root = protobuf.loadSync(fileURLToPath(VECTOR_PROTO));
  const PushEventsRequest = root.lookupType('vector.PushEventsRequest');
  const requests: Array<{ path: string; encoding: unknown; compressed: number; message: Record<string, unknown> }> = [];
  let answer = grpc.status.OK;
  // A bare HTTP/2 server: gRPC's framing read by hand (flag byte, length, message).
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const compressed = body[0]!;
      const message = body.subarray(5, 5 + body.readUInt32BE(1));
      requests.push({
        path: request.headers[':path']!,
        encoding: request.headers['grpc-encoding'],
        compressed,
        message: PushEventsRequest.toObject(PushEventsRequest.decode(compressed ? gunzipSync(message) : message), {
          longs: String,
          enums: String,
          bytes: String,
          objects: true,
        }),
      });
      response.writeHead(200, { 'content-type': 'application/grpc' });
      response.addTrailers({ 'grpc-status': String(answer), 'grpc-message': answer === 0 ? '' : 'refused' });
      if (answer === 0) response.end(Buffer.from([0, 0, 0, 0, 0]));
      else response.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = componentEnv(vector);
  const sink = await buildVectorSink(sinkOptions({ address, compression: true }), env, steppedTimer().timer);
  try {
    const events = [
      { event: { message: 'hi', n: 5n }, metadata: { m: true } },
      { event: 'bare' },
      metricEvent({
        name: 'm',
        tags: { t: ['x', 'y'] },
        kind: 'absolute',
        value: { type: 'aggregated_histogram', buckets: [{ upper_limit: 1, count: 2 }], count: 2, sum: 1 },
      }),
    ];
    const { batch, status } = tracked(toBatch(encodeBatch(events, 0)));
    await sink.write(batch);
    await waitFor(
      () => status() !== undefined,
      () => 'no status',
    );
    assert.is(status(), 'delivered');
    const [request] = requests;
    assert.is(request!.path, '/vector.Vector/PushEvents');
    assert.is(request!.encoding, 'gzip');
    assert.is(request!.compressed, 1);
    const base64 = (text: string) => Buffer.from(text).toString('base64');
    const metadata = { map: { fields: { m: { boolean: true } } } };
    assert.equal(request!.message.events, [
      {
        log: {
          fields: { message: { rawBytes: base64('hi') }, n: { integer: '5' } },
          metadata,
          metadataFull: { value: metadata },
        },
      },
      {
        log: {
          fields: { '.': { null: 'NULL_VALUE' } },
          value: { rawBytes: base64('bare') },
          metadata: { map: { fields: {} } },
          metadataFull: { value: { map: { fields: {} } } },
        },
      },
      {
        metric: {
          name: 'm',
          tagsV1: { t: 'y' },
          tagsV2: { t: { values: [{ value: 'x' }, { value: 'y' }] } },
          kind: 'Absolute',
          aggregatedHistogram3: { buckets: [{ upperLimit: 1, count: '2' }], count: '2', sum: 1 },
          metadata: { map: { fields: {} } },
          metadataFull: { value: { map: { fields: {} } } },
        },
      },
    ]);
    // INVALID_ARGUMENT is not retried: the events are given up on, counted.
    answer = grpc.status.INVALID_ARGUMENT;
    const refused = tracked(logBatch([{ message: 'refused' }]));
    await sink.write(refused.batch);
    await waitFor(
      () => refused.status() !== undefined,
      () => 'no status',
    );
    assert.is(refused.status(), 'rejected');
    assert.is(env.metrics.total('component_discarded_events_total'), 1);
  } finally {
    await sink.close();
    server.close();
  }
});

test('options: Vector refuses both address and routing, and neither; endpoints need a port', () => {
  const errors = (options: object) => {
    const result = vector.options.safeParse(options);
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };
  assert.equal(errors({ address: 'a:1', routing: { endpoints: ['b:2'] } }), [
    'address: `address` and `routing` options are mutually exclusive. Please use `routing.endpoints` for multiple Vector endpoints.',
  ]);
  assert.equal(errors({}), ['address: No Vector endpoint configured. Please set `address` or `routing.endpoints`.']);
  assert.equal(errors({ routing: { endpoints: [] } }), [
    'routing.endpoints: `routing.endpoints` must contain at least one endpoint.',
  ]);
  assert.equal(errors({ address: 'nowhere' }), ['address: expected host:port or an http(s) URI with a port']);
  assert.equal(errors({ address: 'https://agg:6000', compression: true }), []);
  assert.equal(errors({ address: 'agg:6000', compression: 'zstd' }), [
    'compression: zstd is not available in svc: use gzip',
  ]);
});

test.run();
