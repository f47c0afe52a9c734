// Issue 24's metrics end to end, through svc processes: host_metrics and internal_metrics served by
// prometheus_exporter in the exposition format; logs → log_to_metric → aggregate → prometheus_remote_write
// into Debian's Prometheus, read back with PromQL; statsd over UDP and OTLP over HTTP in, the opentelemetry
// sink out to an OTLP receiver that decodes each request (the logs request arrives equal to the one sent; the
// statsd lines arrive as the OTLP metrics they say).

import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { otlpProtocol } from '../../host/components/support/otlp.js';
import { httpTarget } from './support/http-target.js';
import { startPrometheus } from './support/prometheus-server.js';
import { freePort, startSvc, tempDir } from './support/svc.js';
import { waitFor } from '../support/wait-for.js';

const SECOND = 1_700_000_000_000_000_000n;

const LOGS_REQUEST = {
  resourceLogs: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] },
      scopeLogs: [
        {
          scope: { name: 'lib', version: '1.2' },
          logRecords: [
            {
              timeUnixNano: String(SECOND),
              severityNumber: 9,
              severityText: 'INFO',
              body: { stringValue: 'paid 12.50' },
              attributes: [{ key: 'order', value: { intValue: '42' } }],
              traceId: Buffer.from('5b8efff798038103d269b633813fc60c', 'hex'),
              spanId: Buffer.from('eee19b7ec3c1b174', 'hex'),
            },
          ],
        },
      ],
    },
  ],
};

/** A decoded OTLP message as plain data (int64 as strings, bytes as base64), for comparison. */
const plain = (message: unknown) =>
  JSON.parse(JSON.stringify(message, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)));

/** Polls `get` until `done` holds for what it returned; rejects with `describe` after a minute. */
async function pollUntil<T>(
  get: () => Promise<T>,
  done: (value: T) => boolean,
  describe: (value: T) => string,
): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await get();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${describe(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('host_metrics and internal_metrics → prometheus_exporter: /metrics shows host and svc series', async () => {
  const dir = tempDir();
  const port = await freePort();
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `sources:
  host: { type: host_metrics, scrape_interval_secs: 1, collectors: [cpu, memory, load, host] }
  own: { type: internal_metrics, scrape_interval_secs: 1 }
sinks:
  prometheus: { type: prometheus_exporter, inputs: [host, own], address: "127.0.0.1:${port}" }
`,
  );
  const svc = startSvc(['--config', config]);
  const families = (text: string) =>
    new Set([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => `${match[1]} ${match[2]}`));
  try {
    const text = await pollUntil(
      async () => {
        const response = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
        return response?.status === 200 ? await response.text() : '';
      },
      (text) =>
        families(text).has('host_cpu_seconds_total counter') &&
        families(text).has('svc_component_received_events_total counter'),
      (text) => `/metrics: ${text.slice(0, 2000)}; stderr: ${svc.stderr()}`,
    );
    for (const family of ['host_memory_total_bytes gauge', 'host_load1 gauge', 'host_uptime gauge'])
      assert.ok(families(text).has(family), family);
    // A host series with its labels, and svc's own counter of what the exporter took.
    assert.match(text, /^host_cpu_seconds_total\{collector="cpu",cpu="0",host="[^"]+",mode="idle"\} \d/m);
    assert.match(
      text,
      /^svc_component_received_events_total\{component_id="prometheus",component_kind="sink",component_type="prometheus_exporter"[^}]*\} \d+/m,
    );
  } finally {
    svc.child.kill('SIGTERM');
    await svc.exited;
  }
});

test('logs → log_to_metric → aggregate → prometheus_remote_write into Prometheus: PromQL returns the sums', async () => {
  const prometheus = await startPrometheus();
  const dir = tempDir();
  const config = join(dir, 'svc.yaml');
  const lines = Array.from({ length: 90 }, (_, i) =>
    JSON.stringify({ method: ['GET', 'POST', 'PUT'][i % 3], status: i % 10 === 0 ? 500 : 200, bytes: 100 + i }),
  );
  writeFileSync(
    config,
    `sources:
  in: { type: stdin, decoding: { codec: json } }
transforms:
  to_metrics:
    type: log_to_metric
    inputs: [in]
    metrics:
      - { type: counter, field: status, name: requests_total, tags: { method: "{{ method }}", status: "{{ status }}" } }
      - { type: counter, field: bytes, name: response_bytes_total, increment_by_value: true, tags: { method: "{{ method }}" } }
  per_second: { type: aggregate, inputs: [to_metrics], interval_ms: 1000 }
sinks:
  prometheus:
    type: prometheus_remote_write
    inputs: [per_second]
    endpoint: "${prometheus.url}/api/v1/write"
    default_namespace: app
`,
  );
  try {
    const { status, stderr } = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const svc = startSvc(['--config', config], { stdin: `${lines.join('\n')}\n` });
      void svc.exited.then(resolve);
    });
    assert.is(status, 0, stderr);
    const byMethodStatus = await prometheus.queryUntilFound('app_requests_total');
    // One 500 in ten lines, spread over the three methods: 27 × 200 and 3 × 500 each.
    assert.equal(
      byMethodStatus.map(({ labels, value }) => [labels.method, labels.status, value]).sort(),
      ['GET', 'POST', 'PUT'].flatMap((method) => [
        [method, '200', 27],
        [method, '500', 3],
      ]),
    );
    const bytes = await prometheus.queryUntilFound('sum by (method) (app_response_bytes_total)');
    const expected = (method: number) =>
      Array.from({ length: 90 }, (_, i) => i)
        .filter((i) => i % 3 === method)
        .reduce((sum, i) => sum + 100 + i, 0);
    assert.equal(bytes.map(({ labels, value }) => [labels.method, value]).sort(), [
      ['GET', expected(0)],
      ['POST', expected(1)],
      ['PUT', expected(2)],
    ]);
  } finally {
    await prometheus.stop();
  }
});

test('statsd over UDP and OTLP over HTTP in, opentelemetry out: what arrives is what was sent', async () => {
  const protocol = otlpProtocol();
  const receiver = await httpTarget();
  const dir = tempDir();
  const [statsdPort, httpPort, grpcPort] = [await freePort(), await freePort(), await freePort()];
  const config = join(dir, 'svc.yaml');
  writeFileSync(
    config,
    `sources:
  statsd_in: { type: statsd, mode: udp, address: "127.0.0.1:${statsdPort}" }
  otlp_in:
    type: opentelemetry
    http: { address: "127.0.0.1:${httpPort}" }
    grpc: { address: "127.0.0.1:${grpcPort}" }
    use_otlp_decoding: true
sinks:
  logs_out:
    type: opentelemetry
    inputs: [otlp_in.logs]
    protocol: { type: http, uri: "${receiver.uri}/v1/logs", encoding: { codec: otlp }, batch: { max_events: 1 } }
  metrics_out:
    type: opentelemetry
    inputs: [statsd_in]
    protocol: { type: http, uri: "${receiver.uri}/v1/metrics", encoding: { codec: otlp }, batch: { max_events: 1 } }
`,
  );
  const svc = startSvc(['--config', config]);
  const udp = createSocket('udp4');
  try {
    await svc.waitForStderr(/svc has started/);
    const logsBody = protocol.request.logs.encode(protocol.request.logs.fromObject(LOGS_REQUEST)).finish();
    const answer = await fetch(`http://127.0.0.1:${httpPort}/v1/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: logsBody,
    });
    assert.is(answer.status, 200);
    const lines = ['hits:3|c|#env:prod', 'hits:2|c|#env:prod', 'temperature:21.5|g'];
    await new Promise<void>((resolve, reject) =>
      udp.send(lines.join('\n'), statsdPort, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
    );

    const of = (path: string) => receiver.requests.filter((request) => request.url === path);
    const metricsOut = () =>
      of('/v1/metrics').flatMap((request) =>
        plain(protocol.request.metrics.decode(request.body)).resourceMetrics.flatMap(
          (resource: { scopeMetrics: Array<{ metrics: object[] }> }) =>
            resource.scopeMetrics.flatMap((scope) => scope.metrics),
        ),
      );
    await waitFor(
      () => of('/v1/logs').length >= 1 && metricsOut().length >= 3,
      () => `received ${receiver.requests.map((request) => request.url).join(', ')}; stderr: ${svc.stderr()}`,
    );

    const [logs] = of('/v1/logs');
    assert.is(logs!.headers['content-type'], 'application/x-protobuf');
    assert.equal(
      plain(protocol.request.logs.decode(logs!.body)),
      plain(protocol.request.logs.fromObject(LOGS_REQUEST)),
    );

    // Each statsd counter an incremental (delta, monotonic) sum with its tags as attributes; the gauge a gauge.
    const points = metricsOut().map(
      (metric: {
        name: string;
        sum?: { dataPoints: Array<{ asDouble: number; attributes?: unknown[] }>; aggregationTemporality: number };
        gauge?: { dataPoints: Array<{ asDouble: number }> };
      }) =>
        metric.sum
          ? [
              metric.name,
              'sum',
              metric.sum.aggregationTemporality,
              metric.sum.dataPoints[0]!.asDouble,
              metric.sum.dataPoints[0]!.attributes,
            ]
          : [metric.name, 'gauge', metric.gauge!.dataPoints[0]!.asDouble],
    );
    const env = [{ key: 'env', value: { stringValue: 'prod' } }];
    assert.equal(
      points.sort((a, b) => String(a).localeCompare(String(b))),
      [
        ['hits', 'sum', 'AGGREGATION_TEMPORALITY_DELTA', 2, env],
        ['hits', 'sum', 'AGGREGATION_TEMPORALITY_DELTA', 3, env],
        ['temperature', 'gauge', 21.5],
      ],
    );
  } finally {
    udp.close();
    svc.child.kill('SIGTERM');
    await svc.exited;
    await receiver.close();
  }
});

test.run();
