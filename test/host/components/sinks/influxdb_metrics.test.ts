// The influxdb_metrics sink: v1 into a real InfluxDB 1.x (read back with /query), v2 against a local server
// checking the wire format (path, org, bucket, precision, `Authorization: Token`, the exact lines: measurement
// with namespace, tags, metric_type, fields per metric type), counters made incremental, the settings' checks.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeBatch } from '../../../../abi/batch.js';
import influxDbMetrics, { buildInfluxDbMetricsSink } from '../../../../host/components/sinks/influxdb_metrics.js';
import { type Metric, metricEvent } from '../../../../host/components/support/metric.js';
import { toBatch } from '../../../../host/topology/batch.js';
import { componentEnv } from '../../support/env.js';
import { httpTarget, instantTimer } from '../../support/http-target.js';
import { startInfluxDbServer } from '../../support/influxdb-server.js';

const T = 1_542_182_950_000_000_011n;
const metrics = (list: Metric[]) =>
  toBatch(
    encodeBatch(
      list.map((metric) => metricEvent(metric)),
      0,
    ),
  );

async function build(options: object) {
  const env = componentEnv(influxDbMetrics);
  const sink = await buildInfluxDbMetricsSink(influxDbMetrics.options.parse(options), env, instantTimer().timer);
  return { env, sink };
}

test('v2: /api/v2/write with org, bucket, precision and the token; the line protocol of each metric type', async () => {
  const target = await httpTarget(() => ({ status: 204 }));
  const { sink } = await build({
    endpoint: `${target.uri}/`,
    org: 'my-org',
    bucket: 'my bucket',
    token: 'my-token',
    default_namespace: 'ns',
    tags: { region: 'eu' },
    quantiles: [0.5, 0.99],
  });
  const tags = { host: 'a b', empty: '' };
  await sink.write(
    metrics([
      { name: 'hits', namespace: 'app', tags, timestamp: T, kind: 'incremental', value: { type: 'counter', value: 3 } },
      { name: 'temp', timestamp: T, kind: 'absolute', value: { type: 'gauge', value: -1.5 } },
      { name: 'users', timestamp: T, kind: 'incremental', value: { type: 'set', values: ['a', 'b'] } },
      {
        name: 'latency',
        timestamp: T,
        kind: 'absolute',
        value: {
          type: 'aggregated_histogram',
          buckets: [
            { upper_limit: 0.5, count: 2 },
            { upper_limit: 1, count: 5 },
          ],
          count: 5,
          sum: 2.25,
        },
      },
      {
        name: 'size',
        timestamp: T,
        kind: 'absolute',
        value: { type: 'aggregated_summary', quantiles: [{ quantile: 0.5, value: 10 }], count: 3, sum: 33 },
      },
      {
        name: 'requests',
        timestamp: T,
        kind: 'incremental',
        value: {
          type: 'distribution',
          statistic: 'summary',
          samples: [
            { value: 1, rate: 1 },
            { value: 2, rate: 2 },
            { value: 3, rate: 1 },
          ],
        },
      },
    ]),
  );
  await sink.close();
  await target.close();
  assert.is(target.requests.length, 1);
  const request = target.requests[0]!;
  assert.is(request.method, 'POST');
  assert.is(request.url, '/api/v2/write?org=my-org&bucket=my+bucket&precision=ns');
  assert.is(request.headers.authorization, 'Token my-token');
  assert.is(request.headers['content-type'], 'text/plain');
  assert.equal(request.body.toString().split('\n'), [
    `app.hits,host=a\\ b,metric_type=counter,region=eu value=3 ${T}`,
    `ns.temp,metric_type=gauge,region=eu value=-1.5 ${T}`,
    `ns.users,metric_type=set,region=eu value=2 ${T}`,
    `ns.latency,metric_type=histogram,region=eu bucket_0.5=2u,bucket_1=5u,count=5u,sum=2.25 ${T}`,
    `ns.size,metric_type=summary,region=eu quantile_0.5=10,count=3u,sum=33 ${T}`,
    `ns.requests,metric_type=distribution,region=eu min=1,max=3,median=2,avg=2,sum=8,count=4,quantile_0.50=2,quantile_0.99=3 ${T}`,
  ]);
});

test('v1 into InfluxDB: written and read back; absolute counters sent as increments', async () => {
  const influx = await startInfluxDbServer();
  try {
    await influx.query('CREATE DATABASE metrics');
    const { sink } = await build({ endpoint: influx.url, database: 'metrics', consistency: 'one', version: '1' });
    const counter = (value: number, at: bigint): Metric => ({
      name: 'total',
      namespace: 'svc',
      tags: { host: 'h' },
      timestamp: at,
      kind: 'absolute',
      value: { type: 'counter', value },
    });
    // The first absolute value only sets the reference.
    await sink.write(metrics([counter(10, T), counter(15, T + 1n)]));
    await sink.write(
      metrics([
        counter(18, T + 2n),
        {
          name: 'latency',
          timestamp: T,
          kind: 'absolute',
          value: { type: 'aggregated_histogram', buckets: [{ upper_limit: 1, count: 4 }], count: 4, sum: 2 },
        },
      ]),
    );
    await sink.close();
    assert.equal(await influx.query('SELECT * FROM "svc.total"', 'metrics'), {
      results: [
        {
          statement_id: 0,
          series: [
            {
              name: 'svc.total',
              columns: ['time', 'host', 'metric_type', 'value'],
              values: [
                [Number(T + 1n), 'h', 'counter', 5],
                [Number(T + 2n), 'h', 'counter', 3],
              ],
            },
          ],
        },
      ],
    });
    // v1 writes unsigned integers as integers (`i`).
    assert.equal(await influx.query('SELECT bucket_1, "count", sum FROM latency', 'metrics'), {
      results: [
        {
          statement_id: 0,
          series: [{ name: 'latency', columns: ['time', 'bucket_1', 'count', 'sum'], values: [[Number(T), 4, 4, 2]] }],
        },
      ],
    });
  } finally {
    await influx.stop();
  }
});

test("the settings: one version's options, each version's required ones, quantiles in [0, 1]", () => {
  const problems = (options: object) =>
    influxDbMetrics.options
      .safeParse({ endpoint: 'http://localhost:8086', ...options })
      .error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
  assert.equal(problems({ database: 'db', org: 'o' }), [
    ['version', 'Unclear settings. Both InfluxDB v1 and v2 settings are configured; configure only one version.'],
  ]);
  assert.equal(problems({}), [['version', 'InfluxDB v1 or v2 should be configured as endpoint.']]);
  assert.equal(problems({ version: '2', org: 'o' }), [
    ['bucket', 'the `bucket` option is required when using InfluxDB v2'],
    ['token', 'the `token` option is required when using InfluxDB v2'],
  ]);
  assert.equal(problems({ version: '1', database: 'db', token: 't' }), [
    ['version', 'InfluxDB v1 settings are configured, but v2 settings were also provided; configure only one version.'],
  ]);
  assert.equal(problems({ database: 'db', quantiles: [1.5] }), [
    ['quantiles.0', 'Quantiles must be in range [0.0,1.0]'],
  ]);
  assert.is(problems({ database: 'db' }), undefined);
});

test.run();
