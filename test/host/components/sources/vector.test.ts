// The vector source as Vector's sink talks to it: requests built here from Vector's .proto files (the wire
// format, older shapes included), sent with a gRPC client. Events arrive exactly, with Vector's source
// metadata in either log namespace; with acknowledgements a request is answered once its events are
// delivered, INTERNAL or DATA_LOSS otherwise; HealthCheck answers NOT_SERVING once shutting down, when new
// requests are refused UNAVAILABLE while those under way are still answered.

import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { Timestamp } from '../../../../abi/values.js';
import type { SourceDefinition } from '../../../../host/components/component.js';
import vector from '../../../../host/components/sources/vector.js';
import { readMetric } from '../../../../host/components/support/metric.js';
import { VECTOR_PROTO } from '../../../../host/package-files.js';
import { buildSource, runSource, testEnv, vectorNamespaceEnv, type Collected } from '../../support/sources.js';
import { freePort } from '../../support/svc.js';
import type { ComponentEnv } from '../../../../host/components/component.js';

const root = protobuf.loadSync(fileURLToPath(VECTOR_PROTO));
const PushEventsRequest = root.lookupType('vector.PushEventsRequest');
const HealthCheckResponse = root.lookupType('vector.HealthCheckResponse');
// gRPC's standard health messages (grpc/grpc's health.proto), written here.
const health = protobuf.parse(`
syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}`).root;
const GrpcHealthRequest = health.lookupType('grpc.health.v1.HealthCheckRequest');
const GrpcHealthResponse = health.lookupType('grpc.health.v1.HealthCheckResponse');

const identity = (bytes: Buffer) => bytes;

/** A gRPC client of the source's service, messages as bytes. */
function client(address: string) {
  const channel = new grpc.Client(address, grpc.credentials.createInsecure());
  const call = (method: string, body: Buffer, path = `/vector.Vector/${method}`) =>
    new Promise<{ code: number; response?: Buffer }>((resolve) =>
      channel.makeUnaryRequest(path, identity, identity, body, (error, response) =>
        resolve(error ? { code: error.code } : { code: 0, response: response! }),
      ),
    );
  return {
    push: async (events: object[]) =>
      (
        await call(
          'PushEvents',
          Buffer.from(PushEventsRequest.encode(PushEventsRequest.fromObject({ events })).finish()),
        )
      ).code,
    pushRaw: async (bytes: Buffer) => (await call('PushEvents', bytes)).code,
    grpcHealth: async (service: string) => {
      const request = Buffer.from(GrpcHealthRequest.encode({ service }).finish());
      const { code, response } = await call('', request, '/grpc.health.v1.Health/Check');
      return code === 0
        ? GrpcHealthResponse.toObject(GrpcHealthResponse.decode(response!), { enums: String }).status
        : code;
    },
    health: async () => {
      const { code, response } = await call('HealthCheck', Buffer.alloc(0));
      return code === 0
        ? (HealthCheckResponse.toObject(HealthCheckResponse.decode(response!), { enums: String }).status ?? 'SERVING')
        : code;
    },
    close: () => channel.close(),
  };
}

async function started(
  env: ComponentEnv,
): Promise<{ collected: Collected; api: ReturnType<typeof client>; stop(): Promise<void>; env: ComponentEnv }> {
  const address = `127.0.0.1:${await freePort()}`;
  const source = await buildSource(vector as SourceDefinition, { address }, env);
  const collected = runSource(source);
  const api = client(address);
  return {
    collected,
    api,
    env,
    async stop() {
      collected.shutdown.abort();
      await collected.done;
      await source.acknowledged?.();
      api.close();
    },
  };
}

const bytes = (text: string) => ({ rawBytes: Buffer.from(text) });
const seconds = (s: number, nanos = 0) => ({ seconds: s, nanos });

test('logs, metrics and traces as Vector encodes them (and older Vectors did), legacy namespace', async () => {
  const run = await started(testEnv('vector'));
  try {
    const code = await run.api.push([
      // Vector's log: an object as `fields`, its metadata in `metadata_full`.
      {
        log: {
          fields: {
            message: bytes('hello'),
            count: { integer: '9007199254740993' },
            ratio: { float: 1 },
            ok: { boolean: true },
            none: { null: 0 },
            at: { timestamp: seconds(1_700_000_000, 5) },
            tags: { array: { items: [bytes('a'), { integer: 2 }] } },
            source_type: bytes('kept: present already'),
            nested: { map: { fields: { deep: bytes('x'), unknown: {} } } },
          },
          metadataFull: { value: { map: { fields: { origin: bytes('agent') } } } },
        },
      },
      // A log whose event is not an object goes as `value`; the deprecated `metadata` of older Vectors.
      {
        log: {
          fields: { '.': { null: 0 } },
          value: bytes('just a line'),
          metadata: { map: { fields: { old: { boolean: true } } } },
        },
      },
      {
        metric: {
          name: 'requests',
          namespace: 'web',
          timestamp: seconds(1_700_000_001, 250_000_000),
          tagsV1: { host: 'b' },
          tagsV2: { host: { values: [{ value: 'a' }, { value: 'b' }] }, bare: { values: [{}] } },
          kind: 'Absolute',
          counter: { value: 12 },
          intervalMs: 1000,
        },
      },
      {
        metric: {
          name: 'old_distribution',
          distribution1: { values: [1, 2], sampleRates: [3, 4], statistic: 'Summary' },
        },
      },
      {
        metric: {
          name: 'old_histogram',
          kind: 'Absolute',
          aggregatedHistogram1: { buckets: [1, 5], counts: [2, 3], count: 5, sum: 9 },
        },
      },
      {
        metric: {
          name: 'histogram2',
          kind: 'Absolute',
          aggregatedHistogram2: { buckets: [{ upperLimit: 1, count: 4 }], count: 4, sum: 2 },
        },
      },
      {
        metric: {
          name: 'old_summary',
          kind: 'Absolute',
          aggregatedSummary1: { quantiles: [0.5], values: [7], count: 3, sum: 21 },
        },
      },
      {
        metric: {
          name: 'summary2',
          kind: 'Absolute',
          aggregatedSummary2: { quantiles: [{ quantile: 0.9, value: 8 }], count: 2, sum: 10 },
        },
      },
      {
        metric: {
          name: 'sketch',
          sketch: { agentDdSketch: { count: 2, min: 1, max: 3, sum: 4, avg: 2, k: [-3, 7], n: [1, 1] } },
        },
      },
      { trace: { fields: { span_id: { integer: 42 }, name: bytes('op') } } },
      // A float that is NaN cannot be an event: counted, left out.
      { log: { fields: { bad: { float: Number.NaN } } } },
    ]);
    assert.is(code, grpc.status.OK);
    await run.collected.waitFor(10);
    const { events, metadata, kinds } = run.collected;
    assert.equal(kinds, ['log', 'log', 'metric', 'metric', 'metric', 'metric', 'metric', 'metric', 'metric', 'trace']);
    const first = events[0]!;
    assert.ok(first.timestamp instanceof Timestamp, 'the ingest timestamp is added where absent');
    delete first.timestamp;
    assert.equal(first, {
      message: 'hello',
      count: 9007199254740993n,
      ratio: 1,
      ok: true,
      none: null,
      at: new Timestamp(1_700_000_000_000_000_005n),
      tags: ['a', 2n],
      source_type: 'kept: present already',
      nested: { deep: 'x' },
    });
    assert.equal(metadata[0], { origin: 'agent' });
    assert.is(events[1] as unknown, 'just a line');
    assert.equal(metadata[1], { old: true });
    assert.equal(readMetric(events[2] as never), {
      name: 'requests',
      namespace: 'web',
      tags: { host: ['a', 'b'], bare: null },
      timestamp: 1_700_000_001_250_000_000n,
      interval_ms: 1000,
      kind: 'absolute',
      value: { type: 'counter', value: 12 },
    });
    assert.equal(
      events.slice(3, 9).map((event) => readMetric(event as never).value),
      [
        {
          type: 'distribution',
          samples: [
            { value: 1, rate: 3 },
            { value: 2, rate: 4 },
          ],
          statistic: 'summary',
        },
        {
          type: 'aggregated_histogram',
          buckets: [
            { upper_limit: 1, count: 2 },
            { upper_limit: 5, count: 3 },
          ],
          count: 5,
          sum: 9,
        },
        { type: 'aggregated_histogram', buckets: [{ upper_limit: 1, count: 4 }], count: 4, sum: 2 },
        { type: 'aggregated_summary', quantiles: [{ quantile: 0.5, value: 7 }], count: 3, sum: 21 },
        { type: 'aggregated_summary', quantiles: [{ quantile: 0.9, value: 8 }], count: 2, sum: 10 },
        {
          type: 'sketch',
          sketch: { AgentDDSketch: { bins: { k: [-3n, 7n], n: [1n, 1n] }, count: 2n, min: 1, max: 3, sum: 4, avg: 2 } },
        },
      ],
    );
    assert.equal(events[9], { span_id: 42n, name: 'op' });
    assert.is(run.env.metrics.total('component_errors_total'), 1);
    assert.is(run.env.metrics.total('component_discarded_events_total'), 1);
    // Bytes that are no PushEventsRequest.
    assert.is(await run.api.pushRaw(Buffer.from([0xff, 0xff, 0xff])), grpc.status.INVALID_ARGUMENT);
  } finally {
    await run.stop();
  }
});

test("Vector's namespace: the event as sent, `%vector.source_type` and `%vector.ingest_timestamp` added", async () => {
  const run = await started(vectorNamespaceEnv('vector'));
  try {
    const metadataFull = {
      value: { map: { fields: { vector: { map: { fields: { source_type: bytes('file') } } } } } },
    };
    assert.is(await run.api.push([{ log: { fields: { message: bytes('hi') }, metadataFull } }]), grpc.status.OK);
    await run.collected.waitFor(1);
    assert.equal(run.collected.events[0], { message: 'hi' });
    const { vector: stamp } = run.collected.metadata[0] as { vector: Record<string, unknown> };
    assert.is(stamp.source_type, 'vector');
    assert.ok(stamp.ingest_timestamp instanceof Timestamp);
  } finally {
    await run.stop();
  }
});

test('acknowledgements: answered once delivered; INTERNAL when given up, DATA_LOSS when rejected; draining', async () => {
  const run = await started({ ...testEnv('vector'), acknowledgements: true });
  try {
    const log = (message: string) => ({ log: { fields: { message: bytes(message) } } });
    const answers = ['one', 'two', 'three'].map((message) => run.api.push([log(message)]));
    await run.collected.waitFor(3);
    const finalizerOf = (message: string) => {
      const index = run.collected.events.findIndex((event) => event.message === message);
      return run.collected.batches[index]!.finalizer!;
    };
    finalizerOf('one').release('delivered');
    finalizerOf('two').release('errored');
    assert.is(await answers[0], grpc.status.OK);
    assert.is(await answers[1], grpc.status.INTERNAL);
    assert.is(await run.api.health(), 'SERVING');
    assert.is(await run.api.grpcHealth(''), 'SERVING');
    assert.is(await run.api.grpcHealth('vector.Vector'), 'SERVING');
    assert.is(await run.api.grpcHealth('other'), grpc.status.NOT_FOUND);
    // Shutting down: the request under way is still answered, new ones are turned away.
    run.collected.shutdown.abort();
    assert.is(await run.api.health(), 'NOT_SERVING');
    assert.is(await run.api.grpcHealth(''), 'NOT_SERVING');
    assert.is(await run.api.push([log('late')]), grpc.status.UNAVAILABLE);
    finalizerOf('three').release('rejected');
    assert.is(await answers[2], grpc.status.DATA_LOSS);
  } finally {
    await run.stop();
  }
});

test.run();
