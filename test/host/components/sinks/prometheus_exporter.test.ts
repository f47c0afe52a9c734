// The prometheus_exporter sink: the exact exposition text Vector writes, incremental metrics made absolute,
// series expiring after `flush_period_secs`, auth and gzip; then a real Prometheus scraping it.

import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { encodeBatch } from '../../../../abi/batch.js';
import prometheusExporter, {
  buildPrometheusExporter,
  type PrometheusExporter,
} from '../../../../host/components/sinks/prometheus_exporter.js';
import { type Metric, metricEvent } from '../../../../host/components/support/metric.js';
import { toBatch } from '../../../../host/topology/batch.js';
import { componentEnv } from '../../support/env.js';
import { startPrometheus } from '../../support/prometheus-server.js';
import { freePort } from '../../support/svc.js';

const batchOf = (metrics: Metric[]) =>
  toBatch(
    encodeBatch(
      metrics.map((metric) => metricEvent(metric)),
      0,
    ),
  );

async function exporter(options: object, clock?: () => number): Promise<{ sink: PrometheusExporter; url: string }> {
  const port = await freePort();
  const parsed = prometheusExporter.options.parse({ address: `127.0.0.1:${port}`, ...options });
  const sink = await buildPrometheusExporter(parsed, componentEnv(prometheusExporter), clock);
  return { sink, url: `http://127.0.0.1:${port}/metrics` };
}

async function scrape(url: string, headers: Record<string, string> = {}) {
  const response = await request(url, { headers });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, headers: response.headers, body };
}

test('the exposition text of every metric type, as Vector writes it', async () => {
  const { sink, url } = await exporter({ default_namespace: 'svc', buckets: [1, 5] });
  try {
    await sink.write(
      batchOf([
        {
          name: 'requests_total',
          namespace: 'app',
          tags: { path: 'a"b\\c', code: '200' },
          timestamp: 1612325106789000000n,
          kind: 'absolute',
          value: { type: 'counter', value: 10 },
        },
        { name: 'temperature', tags: { room: 'x' }, kind: 'absolute', value: { type: 'gauge', value: 21.5 } },
        { name: 'users', kind: 'absolute', value: { type: 'set', values: ['a', 'b', 'c'] } },
        {
          name: 'latency',
          kind: 'absolute',
          value: {
            type: 'aggregated_histogram',
            buckets: [
              { upper_limit: 0.1, count: 2 },
              { upper_limit: 1, count: 3 },
            ],
            count: 6,
            sum: 4.5,
          },
        },
        {
          name: 'rpc',
          kind: 'absolute',
          value: {
            type: 'aggregated_summary',
            quantiles: [
              { quantile: 0.5, value: 1 },
              { quantile: 0.99, value: 3 },
            ],
            count: 10,
            sum: 12,
          },
        },
        {
          name: 'size',
          kind: 'absolute',
          value: {
            type: 'distribution',
            samples: [
              { value: 0.3, rate: 1 },
              { value: 7, rate: 2 },
            ],
            statistic: 'histogram',
          },
        },
      ]),
    );
    const { status, headers, body } = await scrape(url);
    assert.is(status, 200);
    assert.is(headers['content-type'], 'text/plain; version=0.0.4');
    assert.fixture(
      body.toString(),
      [
        '# HELP app_requests_total requests_total',
        '# TYPE app_requests_total counter',
        'app_requests_total{code="200",path="a\\"b\\\\c"} 10 1612325106789',
        '# HELP svc_latency latency',
        '# TYPE svc_latency histogram',
        'svc_latency_bucket{le="0.1"} 2',
        'svc_latency_bucket{le="1"} 5',
        'svc_latency_bucket{le="+Inf"} 6',
        'svc_latency_sum 4.5',
        'svc_latency_count 6',
        '# HELP svc_rpc rpc',
        '# TYPE svc_rpc summary',
        'svc_rpc{quantile="0.5"} 1',
        'svc_rpc{quantile="0.99"} 3',
        'svc_rpc_sum 12',
        'svc_rpc_count 10',
        '# HELP svc_size size',
        '# TYPE svc_size histogram',
        'svc_size_bucket{le="1"} 1',
        'svc_size_bucket{le="5"} 1',
        'svc_size_bucket{le="+Inf"} 3',
        'svc_size_sum 14.3',
        'svc_size_count 3',
        '# HELP svc_temperature temperature',
        '# TYPE svc_temperature gauge',
        'svc_temperature{room="x"} 21.5',
        '# HELP svc_users users',
        '# TYPE svc_users gauge',
        'svc_users 3',
        '',
      ].join('\n'),
    );
    assert.is((await scrape(url.replace('/metrics', '/other'))).status, 404);
  } finally {
    await sink.close();
  }
});

test('incremental metrics are added up into absolute ones; absolute ones replace', async () => {
  const { sink, url } = await exporter({ buckets: [2] });
  const counter = (value: number): Metric => ({ name: 'hits', kind: 'incremental', value: { type: 'counter', value } });
  const gauge = (value: number, kind: Metric['kind']): Metric => ({
    name: 'level',
    kind,
    value: { type: 'gauge', value },
  });
  const samples = (value: number): Metric => ({
    name: 'took',
    kind: 'incremental',
    value: { type: 'distribution', samples: [{ value, rate: 1 }], statistic: 'histogram' },
  });
  try {
    await sink.write(batchOf([counter(1), counter(1), gauge(5, 'incremental'), samples(1)]));
    await sink.write(batchOf([counter(2), gauge(-2, 'incremental'), samples(3)]));
    let text = (await scrape(url)).body.toString();
    assert.match(text, '\nhits 4\n');
    assert.match(text, '\nlevel 3\n');
    assert.match(text, 'took_bucket{le="2"} 1\ntook_bucket{le="+Inf"} 2\ntook_sum 4\ntook_count 2\n');
    await sink.write(batchOf([gauge(7, 'absolute')]));
    text = (await scrape(url)).body.toString();
    assert.match(text, '\nlevel 7\n');
  } finally {
    await sink.close();
  }
});

test('distributions_as_summaries: samples become a summary at `quantiles`', async () => {
  const { sink, url } = await exporter({ distributions_as_summaries: true, quantiles: [0.5, 0.9] });
  const samples = (values: number[]): Metric => ({
    name: 'd',
    kind: 'incremental',
    value: { type: 'distribution', samples: values.map((value) => ({ value, rate: 1 })), statistic: 'histogram' },
  });
  try {
    await sink.write(batchOf([samples([1, 2, 3, 4, 5])]));
    await sink.write(batchOf([samples([6, 7, 8, 9, 10])]));
    assert.fixture(
      (await scrape(url)).body.toString(),
      '# HELP d d\n# TYPE d summary\nd{quantile="0.5"} 5\nd{quantile="0.9"} 9\nd_sum 55\nd_count 10\n',
    );
  } finally {
    await sink.close();
  }
});

test('a series not updated for flush_period_secs goes with the next event after the period', async () => {
  let now = 0;
  const { sink, url } = await exporter({ flush_period_secs: 1 }, () => now);
  const gauge = (name: string): Metric => ({ name, kind: 'absolute', value: { type: 'gauge', value: 1 } });
  try {
    await sink.write(batchOf([gauge('a')]));
    now = 500;
    await sink.write(batchOf([gauge('b')]));
    now = 1200;
    assert.match((await scrape(url)).body.toString(), '\na 1\n');
    await sink.write(batchOf([gauge('c')]));
    const text = (await scrape(url)).body.toString();
    assert.not.match(text, '\na 1\n');
    assert.match(text, '\nb 1\n');
    assert.match(text, '\nc 1\n');
  } finally {
    await sink.close();
  }
});

test('auth: 401 without the credentials; gzip when the client accepts it', async () => {
  const { sink, url } = await exporter({ auth: { strategy: 'basic', user: 'u', password: 'p' } });
  try {
    await sink.write(batchOf([{ name: 'up', kind: 'absolute', value: { type: 'gauge', value: 1 } }]));
    const refused = await scrape(url);
    assert.is(refused.status, 401);
    assert.is(refused.headers['www-authenticate'], 'Basic, Bearer');
    const answered = await scrape(url, {
      authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
      'accept-encoding': 'gzip',
    });
    assert.is(answered.status, 200);
    assert.is(answered.headers['content-encoding'], 'gzip');
    assert.is(gunzipSync(answered.body).toString(), '# HELP up up\n# TYPE up gauge\nup 1\n');
  } finally {
    await sink.close();
  }
});

test('a real Prometheus scrapes the exporter', async () => {
  const { sink, url } = await exporter({ default_namespace: 'svc' });
  const prometheus = await startPrometheus([new URL(url).host]);
  try {
    await sink.write(
      batchOf([{ name: 'temperature', tags: { room: 'x' }, kind: 'absolute', value: { type: 'gauge', value: 21.5 } }]),
    );
    const result = await prometheus.queryUntilFound('svc_temperature');
    assert.is(result.length, 1);
    assert.is(result[0]!.value, 21.5);
    assert.is(result[0]!.labels.room, 'x');
    assert.is(result[0]!.labels.job, 'svc');
  } finally {
    await prometheus.stop();
    await sink.close();
  }
});

test.run();
