// The opentelemetry sink: OTLP in → opentelemetry source → opentelemetry sink (`otlp` codec) → a local OTLP
// receiver gets the very requests sent, for logs, metrics and traces; native metrics become metrics requests
// as Vector's otlp codec makes them; with acknowledgements, a receiver refusing the request makes the
// source's client get an error.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Sink, Source } from '../../../../host/components/component.js';
import opentelemetrySink from '../../../../host/components/sinks/opentelemetry.js';
import opentelemetrySource from '../../../../host/components/sources/opentelemetry.js';
import { otlpProtocol, type Signal } from '../../../../host/components/support/otlp.js';
import { componentEnv, logBatch } from '../../support/env.js';
import { type Answer, httpTarget, type HttpTarget } from '../../support/http-target.js';
import { testEnv } from '../../support/sources.js';
import { freePort } from '../../support/svc.js';

const SECOND = 1_700_000_000_000_000_000n;
const SIGNALS = ['logs', 'metrics', 'traces'] as const;

const REQUESTS: Record<Signal, object> = {
  logs: {
    resourceLogs: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] },
        scopeLogs: [
          {
            scope: { name: 'lib', version: '1.2', attributes: [{ key: 'a', value: { boolValue: true } }] },
            logRecords: [
              {
                timeUnixNano: String(SECOND),
                severityNumber: 9,
                severityText: 'INFO',
                body: { kvlistValue: { values: [{ key: 'paid', value: { doubleValue: 12.5 } }] } },
                attributes: [{ key: 'bytes', value: { bytesValue: Buffer.from([0, 255]) } }],
                traceId: Buffer.from('5b8efff798038103d269b633813fc60c', 'hex'),
                spanId: Buffer.from('eee19b7ec3c1b174', 'hex'),
                flags: 1,
              },
              { timeUnixNano: String(SECOND + 1n), body: { stringValue: 'second' }, droppedAttributesCount: 2 },
            ],
          },
        ],
        schemaUrl: 'https://opentelemetry.io/schemas/1.21.0',
      },
    ],
  },
  metrics: {
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'host', value: { stringValue: 'a' } }] },
        scopeMetrics: [
          {
            scope: { name: 'meter' },
            metrics: [
              {
                name: 'requests',
                unit: '1',
                sum: {
                  aggregationTemporality: 1,
                  isMonotonic: true,
                  dataPoints: [{ timeUnixNano: String(SECOND), asInt: '7' }],
                },
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
            ],
          },
        ],
      },
    ],
  },
  traces: {
    resourceSpans: [
      {
        scopeSpans: [
          {
            scope: { name: 'tracer' },
            spans: [
              {
                traceId: Buffer.from('5b8efff798038103d269b633813fc60c', 'hex'),
                spanId: Buffer.from('eee19b7ec3c1b174', 'hex'),
                parentSpanId: Buffer.from('0102030405060708', 'hex'),
                name: 'pay',
                kind: 2,
                startTimeUnixNano: String(SECOND),
                endTimeUnixNano: String(SECOND + 1000n),
                links: [{ traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 2), traceState: 'k=v' }],
                status: { code: 2, message: 'failed' },
              },
            ],
          },
        ],
      },
    ],
  },
};

const encode = (signal: Signal) => {
  const type = otlpProtocol().request[signal];
  return type.encode(type.fromObject(REQUESTS[signal])).finish();
};

/** A request as plain data, to compare: 64-bit integers and bytes as strings. */
const plain = (signal: Signal, bytes: Uint8Array) => {
  const type = otlpProtocol().request[signal];
  return type.toObject(type.decode(bytes), { longs: String, bytes: String });
};

interface Pipeline {
  http: string;
  stop(): Promise<void>;
}

/** The source (`sourceOptions`, with acknowledgements) sending each output to an opentelemetry sink with the
 * `otlp` codec posting to `target` at /v1/<signal>. */
async function pipeline(target: HttpTarget, sourceOptions: object = {}): Promise<Pipeline> {
  const [httpPort, grpcPort] = [await freePort(), await freePort()];
  const sinks = new Map<string, Sink>();
  for (const signal of SIGNALS) {
    const options = opentelemetrySink.options.parse({
      protocol: {
        type: 'http',
        uri: `${target.uri}/v1/${signal}`,
        encoding: { codec: 'otlp' },
        batch: { max_events: 1 },
        request: { retry_attempts: 0 },
      },
    });
    sinks.set(signal, await opentelemetrySink.build(options, componentEnv(opentelemetrySink, `out_${signal}`)));
  }
  const parsed = opentelemetrySource.options.parse({
    http: { address: `127.0.0.1:${httpPort}` },
    grpc: { address: `127.0.0.1:${grpcPort}` },
    ...sourceOptions,
  });
  const source: Source = await opentelemetrySource.build(parsed, {
    ...testEnv('opentelemetry'),
    acknowledgements: true,
  });
  const shutdown = new AbortController();
  const done = source.run({ send: (batch, output) => sinks.get(output!)!.write(batch), shutdown: shutdown.signal });
  return {
    http: `http://127.0.0.1:${httpPort}`,
    async stop() {
      shutdown.abort();
      await done;
      await source.acknowledged?.();
      await Promise.all([...sinks.values()].map((sink) => sink.close()));
    },
  };
}

const post = async (uri: string, body: Uint8Array) => {
  const response = await fetch(uri, { method: 'POST', body, headers: { 'content-type': 'application/x-protobuf' } });
  await response.arrayBuffer();
  return response.status;
};

test('round trip: OTLP in, use_otlp_decoding, the otlp codec out: the receiver gets the requests sent', async () => {
  const target = await httpTarget();
  const otel = await pipeline(target, { use_otlp_decoding: true });
  try {
    for (const signal of SIGNALS) {
      // Acknowledged: the answer comes once the receiver has the request.
      assert.is(await post(`${otel.http}/v1/${signal}`, encode(signal)), 200);
      const received = target.requests.at(-1)!;
      assert.is(received.url, `/v1/${signal}`);
      assert.is(received.headers['content-type'], 'application/x-protobuf');
      assert.equal(plain(signal, received.body), plain(signal, encode(signal)), signal);
    }
    assert.is(target.requests.length, 3);
  } finally {
    await otel.stop();
    await target.close();
  }
});

test("native metrics out: each metric a request of its own, as Vector's otlp codec encodes it", async () => {
  const target = await httpTarget();
  const otel = await pipeline(target);
  try {
    assert.is(await post(`${otel.http}/v1/metrics`, encode('metrics')), 200);
    const requests = target.requests.map((request) => plain('metrics', request.body));
    const metrics = requests.map((request) => {
      type Plain = { resource: unknown; scopeMetrics: Array<{ scope: unknown; metrics: unknown[] }> };
      const [resourceMetrics] = (request as { resourceMetrics: Plain[] }).resourceMetrics;
      const [scopeMetrics] = resourceMetrics!.scopeMetrics;
      return { resource: resourceMetrics!.resource, scope: scopeMetrics!.scope, metric: scopeMetrics!.metrics[0] };
    });
    const resource = { attributes: [{ key: 'host', value: { stringValue: 'a' } }] };
    assert.equal(metrics, [
      {
        resource,
        scope: { name: 'meter' },
        metric: {
          name: 'requests',
          sum: {
            dataPoints: [{ timeUnixNano: String(SECOND), asDouble: 7 }],
            aggregationTemporality: 1,
            isMonotonic: true,
          },
        },
      },
      {
        resource,
        scope: { name: 'meter' },
        metric: {
          name: 'latency',
          histogram: {
            dataPoints: [
              {
                timeUnixNano: '1',
                count: '6',
                sum: 10,
                bucketCounts: ['1', '2', '3'],
                explicitBounds: [1, 2],
              },
            ],
            aggregationTemporality: 2,
          },
        },
      },
    ]);
  } finally {
    await otel.stop();
    await target.close();
  }
});

test('acknowledgements: a receiver refusing the request makes the client of the source get an error', async () => {
  const target = await httpTarget((): Answer => ({ status: 400, body: 'no' }));
  const otel = await pipeline(target, { use_otlp_decoding: true });
  try {
    assert.is(await post(`${otel.http}/v1/logs`, encode('logs')), 500);
    assert.is(target.requests.length, 1);
  } finally {
    await otel.stop();
    await target.close();
  }
});

test('events OTLP cannot carry are counted and left out', async () => {
  const target = await httpTarget();
  const env = componentEnv(opentelemetrySink);
  const sink = await opentelemetrySink.build(
    opentelemetrySink.options.parse({
      protocol: { type: 'http', uri: `${target.uri}/v1/logs`, encoding: { codec: 'otlp' }, batch: { max_events: 1 } },
    }),
    env,
  );
  try {
    await sink.write(logBatch([{ message: 'not a request' }]));
    await sink.close();
    assert.is(
      env.metrics.snapshot().find((sample) => sample.name === 'component_errors_total')?.tags.error_type,
      'encoder_failed',
    );
    assert.ok(env.logs.some((record) => /resourceLogs or resourceMetrics/.test(record.message)));
  } finally {
    await target.close();
  }
});

test.run();
