// The prometheus_remote_write sink: the snappy protobuf WriteRequest Vector sends (labels, samples, metadata,
// headers), incremental metrics added up, tenants, retries; then a real Prometheus receiving it and
// answering PromQL queries with the values sent.

import { createRequire } from 'node:module';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeBatch } from '../../../../abi/batch.js';
import prometheusRemoteWrite, {
  buildRemoteWriteSink,
} from '../../../../host/components/sinks/prometheus_remote_write.js';
import { type Metric, metricEvent } from '../../../../host/components/support/metric.js';
import { writeRequestType } from '../../../../host/components/support/prometheus.js';
import { BatchNotifier, type BatchStatus, toBatch } from '../../../../host/topology/batch.js';
import { componentEnv } from '../../support/env.js';
import { httpTarget, instantTimer, type Received } from '../../support/http-target.js';
import { startPrometheus } from '../../support/prometheus-server.js';

const require = createRequire(import.meta.url);
const snappy = require('snappyjs') as { uncompress(bytes: Uint8Array): Uint8Array };

function tracked(metrics: Metric[]) {
  let status: BatchStatus | undefined;
  const finalizer = new BatchNotifier((given) => (status = given));
  const batch = {
    ...toBatch(
      encodeBatch(
        metrics.map((metric) => metricEvent(metric)),
        0,
      ),
    ),
    finalizer,
  };
  return { batch, status: () => status };
}

const decode = (received: Received) =>
  writeRequestType().toObject(writeRequestType().decode(snappy.uncompress(received.body)), { longs: Number }) as {
    timeseries: Array<{
      labels: Array<{ name: string; value: string }>;
      samples: Array<{ value: number; timestamp: number }>;
    }>;
    metadata: Array<{ type: number; metricFamilyName: string; help: string }>;
  };

const hits = (value: number, millis: number): Metric => ({
  name: 'hits',
  tags: { b: '2', a: '1' },
  timestamp: BigInt(millis) * 1_000_000n,
  kind: 'incremental',
  value: { type: 'counter', value },
});

test('one snappy protobuf WriteRequest: sorted labels, incremental counters added up, metadata, headers', async () => {
  const target = await httpTarget();
  const env = componentEnv(prometheusRemoteWrite);
  const parsed = prometheusRemoteWrite.options.parse({ endpoint: `${target.uri}/write`, default_namespace: 'svc' });
  const { timer } = instantTimer();
  const sink = await buildRemoteWriteSink(parsed, env, timer);
  const before = Date.now();
  const first = tracked([
    hits(1, 1000),
    { name: 'temp', namespace: 'ns', kind: 'absolute', value: { type: 'gauge', value: 5 } },
  ]);
  const second = tracked([hits(2, 2000)]);
  try {
    await sink.write(first.batch);
    await sink.write(second.batch);
  } finally {
    await sink.close();
    await target.close();
  }
  assert.is(first.status(), 'delivered');
  assert.is(second.status(), 'delivered');
  assert.is(target.requests.length, 1);
  const [received] = target.requests;
  assert.is(received!.url, '/write');
  assert.is(received!.headers['content-encoding'], 'snappy');
  assert.is(received!.headers['content-type'], 'application/x-protobuf');
  assert.is(received!.headers['x-prometheus-remote-write-version'], '0.1.0');
  const request = decode(received!);
  const [series, temp] = request.timeseries;
  assert.equal(series, {
    labels: [
      { name: '__name__', value: 'svc_hits' },
      { name: 'a', value: '1' },
      { name: 'b', value: '2' },
    ],
    samples: [{ value: 3, timestamp: 2000 }],
  });
  assert.equal(temp!.labels, [{ name: '__name__', value: 'ns_temp' }]);
  assert.is(temp!.samples[0]!.value, 5);
  assert.ok(temp!.samples[0]!.timestamp >= before && temp!.samples[0]!.timestamp <= Date.now());
  assert.equal(
    request.metadata.map(({ type, metricFamilyName, help }) => [type, metricFamilyName, help]),
    [
      [1, 'svc_hits', 'hits'],
      [2, 'ns_temp', 'temp'],
    ],
  );
});

test('tenant_id: X-Scope-OrgID per tenant; a 5xx is retried, a 4xx given up', async () => {
  let failedOnce = false;
  const target = await httpTarget((request) => {
    if (request.headers['x-scope-orgid'] === 'refused') return { status: 400 };
    if (failedOnce) return { status: 200 };
    failedOnce = true;
    return { status: 503 };
  });
  const env = componentEnv(prometheusRemoteWrite);
  const parsed = prometheusRemoteWrite.options.parse({ endpoint: target.uri, tenant_id: '{{ tags.team }}' });
  const { timer, waits } = instantTimer();
  const sink = await buildRemoteWriteSink(parsed, env, timer);
  const gauge = (team: string): Metric => ({
    name: 'up',
    tags: { team },
    kind: 'absolute',
    value: { type: 'gauge', value: 1 },
  });
  const accepted = tracked([gauge('a')]);
  const refused = tracked([gauge('refused')]);
  try {
    await sink.write(accepted.batch);
    await sink.write(refused.batch);
  } finally {
    await sink.close();
    await target.close();
  }
  assert.is(accepted.status(), 'delivered');
  assert.is(refused.status(), 'rejected');
  assert.equal(target.requests.map((request) => request.headers['x-scope-orgid']).sort(), ['a', 'a', 'refused']);
  assert.is(waits.length, 1);
  assert.is(env.metrics.total('component_errors_total'), 1);
});

test('a real Prometheus receives the series and answers PromQL queries with their values', async () => {
  const prometheus = await startPrometheus();
  const env = componentEnv(prometheusRemoteWrite);
  const parsed = prometheusRemoteWrite.options.parse({
    endpoint: `${prometheus.url}/api/v1/write`,
    default_namespace: 'svc',
    buckets: [1, 10],
  });
  const sink = await buildRemoteWriteSink(parsed, env);
  const sent = tracked([
    { name: 'requests_total', tags: { code: '200' }, kind: 'incremental', value: { type: 'counter', value: 40 } },
    { name: 'requests_total', tags: { code: '200' }, kind: 'incremental', value: { type: 'counter', value: 2 } },
    {
      name: 'took',
      kind: 'absolute',
      value: {
        type: 'distribution',
        samples: [
          { value: 0.5, rate: 3 },
          { value: 5, rate: 1 },
        ],
        statistic: 'histogram',
      },
    },
  ]);
  try {
    await sink.write(sent.batch);
    await sink.close();
    assert.is(sent.status(), 'delivered');
    const counter = await prometheus.queryUntilFound('svc_requests_total');
    assert.equal(counter, [{ labels: { code: '200' }, value: 42 }]);
    const buckets = await prometheus.queryUntilFound('svc_took_bucket');
    assert.equal(buckets.map(({ labels, value }) => [labels.le, value]).sort(), [
      ['+Inf', 4],
      ['1', 3],
      ['10', 4],
    ]);
    assert.equal(await prometheus.query('svc_took_sum'), [{ labels: {}, value: 6.5 }]);
  } finally {
    await prometheus.stop();
  }
});

test.run();
