// Issue 24's metrics end to end, through svc processes: statsd over UDP and OTLP over HTTP in, the
// opentelemetry sink out to an OTLP receiver that decodes each request (the logs request arrives equal to the
// one sent; the statsd lines arrive as the OTLP metrics they say).

import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { otlpProtocol } from '../../host/components/support/otlp.js';
import { httpTarget } from './support/http-target.js';
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
