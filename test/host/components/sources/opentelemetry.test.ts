// The opentelemetry source: OTLP export requests over HTTP (protobuf and OTLP/JSON, gzip bodies) and gRPC,
// each signal through its output and converted as Vector converts it; `use_otlp_decoding` keeps the request;
// with acknowledgements, a request is answered only once its events are delivered, with an error when not.

import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as grpc from '@grpc/grpc-js';
import { decodeBatch } from '../../../../abi/batch.js';
import { Timestamp } from '../../../../abi/values.js';
import opentelemetry from '../../../../host/components/sources/opentelemetry.js';
import type { ComponentEnv, Source } from '../../../../host/components/component.js';
import { readMetric } from '../../../../host/components/support/metric.js';
import { otlpProtocol, type Signal } from '../../../../host/components/support/otlp.js';
import type { BatchStatus, EventBatch } from '../../../../host/topology/batch.js';
import { testEnv, vectorNamespaceEnv } from '../../support/sources.js';
import { makeCertificates } from '../../support/certificates.js';
import { freePort } from '../../support/svc.js';

const TRACE_ID = '5b8efff798038103d269b633813fc60c';
const SPAN_ID = 'eee19b7ec3c1b174';
const SECOND = 1_700_000_000_000_000_000n;

interface Received {
  output: string | undefined;
  kind: string;
  event: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

interface Running {
  http: string;
  grpc: string;
  received: Received[];
  stop(): Promise<void>;
}

/** Starts the source on free ports; `status`: what each batch's finalizer is released with (acknowledgements). */
async function start(options: object = {}, env: ComponentEnv = testEnv('opentelemetry'), status?: BatchStatus) {
  const [httpPort, grpcPort] = [await freePort(), await freePort()];
  const { http, grpc: grpcOptions, ...rest } = options as { http?: object; grpc?: object };
  const parsed = opentelemetry.options.parse({
    http: { ...http, address: `127.0.0.1:${httpPort}` },
    grpc: { ...grpcOptions, address: `127.0.0.1:${grpcPort}` },
    ...rest,
  });
  const source: Source = await opentelemetry.build(parsed, { ...env, acknowledgements: status !== undefined });
  const received: Received[] = [];
  const shutdown = new AbortController();
  const done = source.run({
    async send(batch: EventBatch, output?: string) {
      for (const { kind, event, metadata } of decodeBatch(batch.bytes).events)
        received.push({ output, kind, event: event as Record<string, unknown>, metadata: metadata as never });
      if (status !== undefined) batch.finalizer?.release(status);
    },
    shutdown: shutdown.signal,
  });
  return {
    http: `http://127.0.0.1:${httpPort}`,
    grpc: `127.0.0.1:${grpcPort}`,
    received,
    async stop() {
      shutdown.abort();
      await done;
      await source.acknowledged?.();
    },
  } satisfies Running;
}

const logsRequest = {
  resourceLogs: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] },
      scopeLogs: [
        {
          scope: { name: 'lib', version: '1.2' },
          logRecords: [
            {
              timeUnixNano: String(SECOND),
              observedTimeUnixNano: String(SECOND + 5n),
              severityNumber: 9,
              severityText: 'INFO',
              body: { stringValue: 'paid' },
              attributes: [
                { key: 'amount', value: { intValue: '42' } },
                { key: 'ratio', value: { doubleValue: 0.5 } },
                { key: 'tags', value: { arrayValue: { values: [{ boolValue: true }, { stringValue: 'x' }] } } },
              ],
              flags: 1,
              traceId: Buffer.from(TRACE_ID, 'hex'),
              spanId: Buffer.from(SPAN_ID, 'hex'),
            },
          ],
        },
      ],
    },
  ],
};

const metricsRequest = {
  resourceMetrics: [
    {
      resource: { attributes: [{ key: 'host', value: { stringValue: 'a' } }] },
      scopeMetrics: [
        {
          scope: { name: 'meter' },
          metrics: [
            { name: 'temperature', gauge: { dataPoints: [{ timeUnixNano: String(SECOND), asDouble: 21.5 }] } },
            {
              name: 'requests',
              sum: {
                aggregationTemporality: 1,
                isMonotonic: true,
                dataPoints: [
                  {
                    timeUnixNano: String(SECOND),
                    asInt: '7',
                    attributes: [{ key: 'code', value: { intValue: '200' } }],
                  },
                ],
              },
            },
            {
              name: 'queue',
              sum: { aggregationTemporality: 2, isMonotonic: false, dataPoints: [{ timeUnixNano: '1', asDouble: 3 }] },
            },
            {
              name: 'latency',
              histogram: {
                aggregationTemporality: 2,
                dataPoints: [
                  { timeUnixNano: '1', count: '6', sum: 10, bucketCounts: ['1', '2', '3'], explicitBounds: [1, 2] },
                ],
              },
            },
            {
              name: 'sizes',
              exponentialHistogram: {
                aggregationTemporality: 1,
                dataPoints: [
                  {
                    timeUnixNano: '1',
                    count: '4',
                    sum: 9,
                    scale: 0,
                    zeroCount: '1',
                    positive: { offset: 0, bucketCounts: ['1', '2'] },
                  },
                ],
              },
            },
            {
              name: 'rtt',
              summary: {
                dataPoints: [
                  { timeUnixNano: '1', count: '2', sum: 3, quantileValues: [{ quantile: 0.5, value: 1.5 }] },
                ],
              },
            },
          ],
        },
      ],
    },
  ],
};

const tracesRequest = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] },
      scopeSpans: [
        {
          spans: [
            {
              traceId: Buffer.from(TRACE_ID, 'hex'),
              spanId: Buffer.from(SPAN_ID, 'hex'),
              name: 'pay',
              kind: 2,
              startTimeUnixNano: String(SECOND),
              endTimeUnixNano: String(SECOND + 1000n),
              attributes: [{ key: 'http.method', value: { stringValue: 'POST' } }],
              events: [{ name: 'retry', timeUnixNano: String(SECOND + 10n) }],
              status: { code: 1, message: 'ok' },
            },
          ],
        },
      ],
    },
  ],
};

const REQUESTS: Record<Signal, object> = { logs: logsRequest, metrics: metricsRequest, traces: tracesRequest };

const protobufBody = (signal: Signal, request: object = REQUESTS[signal]) => {
  const type = otlpProtocol().request[signal];
  return type.encode(type.fromObject(request)).finish();
};

async function post(uri: string, body: Uint8Array | string, headers: Record<string, string>) {
  const response = await fetch(uri, { method: 'POST', body, headers });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: new Uint8Array(await response.arrayBuffer()),
  };
}

test('HTTP protobuf logs: Vector log events in the legacy namespace, through the `logs` output', async () => {
  const source = await start();
  try {
    const response = await post(`${source.http}/v1/logs`, protobufBody('logs'), {
      'content-type': 'application/x-protobuf',
    });
    assert.is(response.status, 200);
    assert.is(response.type, 'application/x-protobuf');
    assert.equal(otlpProtocol().response.logs.toObject(otlpProtocol().response.logs.decode(response.body)), {});
    assert.is(source.received.length, 1);
    const [{ output, kind, event }] = source.received as [Received];
    assert.is(output, 'logs');
    assert.is(kind, 'log');
    assert.equal(event, {
      message: 'paid',
      attributes: { amount: 42n, ratio: 0.5, tags: [true, 'x'] },
      resources: { 'service.name': 'checkout' },
      scope: { name: 'lib', version: '1.2' },
      trace_id: TRACE_ID,
      span_id: SPAN_ID,
      severity_text: 'INFO',
      severity_number: 9n,
      flags: 1n,
      dropped_attributes_count: 0n,
      observed_timestamp: new Timestamp(SECOND + 5n),
      timestamp: new Timestamp(SECOND),
      source_type: 'opentelemetry',
    });
  } finally {
    await source.stop();
  }
});

test("HTTP logs in Vector's namespace: the body is the event, the rest metadata (with `http.headers`)", async () => {
  const source = await start({ http: { headers: ['x-*'] } }, vectorNamespaceEnv('opentelemetry'));
  try {
    for (const signal of ['logs', 'metrics'] as const) {
      const response = await post(`${source.http}/v1/${signal}`, protobufBody(signal), {
        'content-type': 'application/x-protobuf',
        'x-tenant': 'blue',
      });
      assert.is(response.status, 200);
    }
    for (const { metadata } of source.received)
      assert.equal((metadata.opentelemetry as Record<string, unknown>).headers, { 'x-tenant': 'blue' });
    const [{ event, metadata }] = source.received as [Received];
    assert.is(event as unknown, 'paid');
    const own = metadata.opentelemetry as Record<string, unknown>;
    assert.equal(own.resources, { 'service.name': 'checkout' });
    assert.equal(own.timestamp, new Timestamp(SECOND));
    assert.is(own.trace_id, TRACE_ID);
    assert.is((metadata.vector as Record<string, unknown>).source_type, 'opentelemetry');
  } finally {
    await source.stop();
  }
});

test('HTTP metrics: each data point a metric as Vector converts it, through `metrics`', async () => {
  const source = await start();
  try {
    const response = await post(`${source.http}/v1/metrics`, protobufBody('metrics'), {
      'content-type': 'application/x-protobuf',
    });
    assert.is(response.status, 200);
    assert.ok(source.received.every((r) => r.output === 'metrics' && r.kind === 'metric'));
    const metrics = source.received.map((r) => readMetric(r.event as never));
    const tags = { 'resource.host': 'a', 'scope.name': 'meter' };
    assert.equal(metrics, [
      { name: 'temperature', kind: 'absolute', value: { type: 'gauge', value: 21.5 }, tags, timestamp: SECOND },
      {
        name: 'requests',
        kind: 'incremental',
        value: { type: 'counter', value: 7 },
        tags: { ...tags, code: '200' },
        timestamp: SECOND,
      },
      { name: 'queue', kind: 'absolute', value: { type: 'gauge', value: 3 }, tags, timestamp: 1n },
      {
        name: 'latency',
        kind: 'absolute',
        value: {
          type: 'aggregated_histogram',
          buckets: [
            { upper_limit: 1, count: 1 },
            { upper_limit: 2, count: 2 },
            { upper_limit: Infinity, count: 3 },
          ],
          count: 6,
          sum: 10,
        },
        tags,
        timestamp: 1n,
      },
      {
        name: 'sizes',
        kind: 'incremental',
        value: {
          type: 'aggregated_histogram',
          buckets: [
            { upper_limit: 0, count: 1 },
            { upper_limit: 2, count: 1 },
            { upper_limit: 4, count: 2 },
          ],
          count: 4,
          sum: 9,
        },
        tags,
        timestamp: 1n,
      },
      {
        name: 'rtt',
        kind: 'absolute',
        value: { type: 'aggregated_summary', quantiles: [{ quantile: 0.5, value: 1.5 }], count: 2, sum: 3 },
        tags,
        timestamp: 1n,
      },
    ]);
  } finally {
    await source.stop();
  }
});

test("HTTP traces: each span a trace event in Vector's shape, through `traces`", async () => {
  const source = await start();
  try {
    const response = await post(`${source.http}/v1/traces`, protobufBody('traces'), {
      'content-type': 'application/x-protobuf',
    });
    assert.is(response.status, 200);
    const [{ output, kind, event }] = source.received as [Received];
    assert.is(output, 'traces');
    assert.is(kind, 'trace');
    const { ingest_timestamp, ...span } = event;
    assert.ok(ingest_timestamp instanceof Timestamp);
    assert.equal(span, {
      trace_id: TRACE_ID,
      span_id: SPAN_ID,
      trace_state: '',
      parent_span_id: '',
      name: 'pay',
      kind: 2n,
      start_time_unix_nano: new Timestamp(SECOND),
      end_time_unix_nano: new Timestamp(SECOND + 1000n),
      attributes: { 'http.method': 'POST' },
      dropped_attributes_count: 0n,
      events: [
        { name: 'retry', time_unix_nano: new Timestamp(SECOND + 10n), attributes: {}, dropped_attributes_count: 0n },
      ],
      dropped_events_count: 0n,
      dropped_links_count: 0n,
      status: { message: 'ok', code: 1n },
      resources: { 'service.name': 'checkout' },
    });
  } finally {
    await source.stop();
  }
});

test('HTTP OTLP/JSON, gzip-compressed: hex ids, int64 as strings or numbers, enums by name; a JSON answer', async () => {
  const source = await start();
  try {
    const json = JSON.stringify({
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                {
                  time_unix_nano: Number(SECOND / 1_000_000_000n) * 1e9,
                  severityNumber: 'SEVERITY_NUMBER_ERROR',
                  unknownField: true,
                  body: { kvlistValue: { values: [{ key: 'n', value: { intValue: '9007199254740993' } }] } },
                  traceId: TRACE_ID,
                  spanId: SPAN_ID,
                },
              ],
            },
          ],
        },
      ],
    });
    const response = await post(`${source.http}/v1/logs`, gzipSync(json), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    assert.is(response.status, 200);
    assert.is(response.type, 'application/json');
    assert.equal(JSON.parse(Buffer.from(response.body).toString()), {});
    const [{ event }] = source.received as [Received];
    assert.equal(event.message, { n: 9007199254740993n });
    assert.is(event.trace_id, TRACE_ID);
    assert.is(event.span_id, SPAN_ID);
    assert.is(event.severity_number, 17n);
    assert.equal(event.timestamp, new Timestamp(SECOND));

    const bad = await post(`${source.http}/v1/logs`, '{"resourceLogs": 5}', { 'content-type': 'application/json' });
    assert.is(bad.status, 400);
    assert.match(JSON.parse(Buffer.from(bad.body).toString()).message, /^Could not decode request/);
    const other = await post(`${source.http}/v1/logs`, 'x', { 'content-type': 'text/plain' });
    assert.is(other.status, 415);
    const nowhere = await post(`${source.http}/v2/logs`, 'x', { 'content-type': 'application/json' });
    assert.is(nowhere.status, 404);
  } finally {
    await source.stop();
  }
});

test('use_otlp_decoding: the request itself, under its JSON field names (metrics as logs)', async () => {
  const source = await start({ use_otlp_decoding: true }, vectorNamespaceEnv('opentelemetry'));
  try {
    for (const signal of ['logs', 'metrics', 'traces'] as const) {
      const response = await post(`${source.http}/v1/${signal}`, protobufBody(signal), {
        'content-type': 'application/x-protobuf',
      });
      assert.is(response.status, 200);
    }
    assert.equal(
      source.received.map((r) => [r.output, r.kind, Object.keys(r.event)]),
      [
        ['logs', 'log', ['resourceLogs']],
        ['metrics', 'log', ['resourceMetrics']],
        ['traces', 'trace', ['resourceSpans']],
      ],
    );
    const record = (source.received[0]!.event as never as typeof logsRequest).resourceLogs[0]!.scopeLogs[0]!
      .logRecords[0]!;
    assert.is(record.severityText, 'INFO');
    assert.is(record.severityNumber as unknown, 9n);
    assert.is(record.timeUnixNano as unknown, SECOND);
    assert.is(Buffer.from(record.traceId).toString('hex'), TRACE_ID);
    assert.not('droppedAttributesCount' in record, 'fields at their default are left out');
  } finally {
    await source.stop();
  }
});

/** One gRPC Export call; resolves with the error's code, or 0. */
function exportCall(
  address: string,
  signal: Signal,
  body: Uint8Array,
  credentials = grpc.credentials.createInsecure(),
  options: grpc.ChannelOptions = {},
): Promise<{ code: number; details?: string }> {
  const service = otlpProtocol().service[signal].fullName.slice(1);
  const client = new grpc.Client(address, credentials, options);
  const raw = (bytes: Buffer) => bytes;
  return new Promise((resolve) => {
    client.makeUnaryRequest(`/${service}/Export`, raw, raw, Buffer.from(body), (error) => {
      client.close();
      resolve(error ? { code: error.code, details: error.details } : { code: 0 });
    });
  });
}

test('gRPC: the collector services take each signal', async () => {
  const source = await start();
  try {
    for (const signal of ['logs', 'metrics', 'traces'] as const)
      assert.equal(await exportCall(source.grpc, signal, protobufBody(signal)), { code: 0 });
    const outputs = source.received.map((r) => r.output);
    assert.equal([...new Set(outputs)], ['logs', 'metrics', 'traces']);
    assert.is(outputs.filter((output) => output === 'metrics').length, 6);
    assert.is(source.received[0]!.event.message, 'paid');
    const invalid = await exportCall(source.grpc, 'logs', Buffer.from([0xff, 0xff, 0xff]));
    assert.is(invalid.code, grpc.status.INVALID_ARGUMENT);
  } finally {
    await source.stop();
  }
});

test('acknowledgements: delivered answers success; a sink that gave the events up makes the request fail', async () => {
  const delivered = await start({}, testEnv('opentelemetry'), 'delivered');
  try {
    const response = await post(`${delivered.http}/v1/logs`, protobufBody('logs'), {
      'content-type': 'application/x-protobuf',
    });
    assert.is(response.status, 200);
  } finally {
    await delivered.stop();
  }
  const failing = await start({}, testEnv('opentelemetry'), 'errored');
  try {
    const response = await post(`${failing.http}/v1/traces`, protobufBody('traces'), {
      'content-type': 'application/x-protobuf',
    });
    assert.is(response.status, 500);
    const status = otlpProtocol().status.decode(response.body) as unknown as { message: string };
    assert.is(status.message, 'Error delivering contents to sink');
    assert.equal(await exportCall(failing.grpc, 'metrics', protobufBody('metrics')), {
      code: grpc.status.INTERNAL,
      details: 'Error delivering contents to sink',
    });
  } finally {
    await failing.stop();
  }
});

test('TLS: HTTPS and gRPC over TLS with the server certificate; `http.headers` go into log events', async () => {
  const certificates = makeCertificates();
  const tls = { enabled: true, crt_file: certificates.serverCrt, key_file: certificates.serverKey };
  const source = await start({ http: { address: '', tls, headers: ['x-tenant'] }, grpc: { address: '', tls } });
  try {
    const ca = readFileSync(certificates.ca);
    const status = await new Promise<number>((resolve, reject) => {
      const body = protobufBody('logs');
      const call = request(
        `${source.http.replace('http:', 'https:')}/v1/logs`,
        { method: 'POST', ca, headers: { 'content-type': 'application/x-protobuf', 'x-tenant': 'blue' }, agent: false },
        (response) => response.resume().on('end', () => resolve(response.statusCode!)),
      );
      call.on('error', reject).end(body);
    });
    assert.is(status, 200);
    assert.is(source.received[0]!.event['x-tenant'], 'blue');
    const secure = grpc.credentials.createSsl(ca);
    // The certificate is for localhost and 127.0.0.1; TLS names the server by its DNS name.
    const named = { 'grpc.ssl_target_name_override': 'localhost' };
    assert.equal(await exportCall(source.grpc, 'traces', protobufBody('traces'), secure, named), { code: 0 });
    assert.is(source.received.at(-1)!.output, 'traces');
  } finally {
    await source.stop();
  }
});

test.run();
