// The splunk_hec_metrics sink against a local server playing Splunk's HTTP Event Collector: the exact HEC metric
// events (fields from tags but the templated ones, metric_name with namespace, _value, time, host, index,
// source, sourcetype), unsupported metric types dropped and counted, the passthrough token, indexer
// acknowledgements.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeBatch } from '../../../../abi/batch.js';
import splunkHecMetrics, { buildSplunkHecMetricsSink } from '../../../../host/components/sinks/splunk_hec_metrics.js';
import { type Metric, metricEvent } from '../../../../host/components/support/metric.js';
import { BatchNotifier, type BatchStatus, toBatch } from '../../../../host/topology/batch.js';
import { componentEnv } from '../../support/env.js';
import { httpTarget, instantTimer } from '../../support/http-target.js';
import { waitFor } from '../../../support/wait-for.js';

const T = 1_638_366_107_111_000_000n;
const metrics = (list: Metric[], metadata?: object) =>
  toBatch(
    encodeBatch(
      list.map((metric) => metricEvent(metric, metadata)),
      0,
    ),
  );

async function build(options: object) {
  const env = componentEnv(splunkHecMetrics);
  const sink = await buildSplunkHecMetricsSink(
    splunkHecMetrics.options.parse({ default_token: 'tok', ...options }),
    env,
    instantTimer().timer,
  );
  return { env, sink };
}

test('HEC metric events: fields, metric_name, _value, time, host and the rendered index/source/sourcetype', async () => {
  const target = await httpTarget(() => ({ status: 200, body: { text: 'Success', code: 0 } }));
  const { sink, env } = await build({
    endpoint: target.uri,
    default_namespace: 'svc',
    index: 'idx-{{ tags.env }}',
    sourcetype: 'st',
    acknowledgements: { indexer_acknowledgements_enabled: false },
  });
  await sink.write(
    metrics([
      {
        name: 'hits',
        namespace: 'app',
        tags: { host: 'box', env: 'prod', region: 'eu' },
        timestamp: T,
        kind: 'incremental',
        value: { type: 'counter', value: 3 },
      },
      { name: 'temp', timestamp: T, kind: 'absolute', value: { type: 'gauge', value: 21.5 } },
      { name: 'users', timestamp: T, kind: 'absolute', value: { type: 'set', values: ['a'] } },
    ]),
  );
  await sink.close();
  await target.close();
  assert.is(target.requests.length, 1);
  const request = target.requests[0]!;
  assert.is(request.url, '/services/collector/event');
  assert.is(request.headers.authorization, 'Splunk tok');
  assert.is(
    request.body.toString(),
    '{"event":"metric","fields":{"_value":3.0,"host":"box","metric_name":"app.hits","region":"eu"},' +
      '"time":1638366107.111,"host":"box","index":"idx-prod","sourcetype":"st"}' +
      '{"event":"metric","fields":{"_value":21.5,"metric_name":"svc.temp"},"time":1638366107.111,"sourcetype":"st"}',
  );
  // The set is not a counter or a gauge: dropped and counted; the missing tag of the index template logged.
  assert.is(env.metrics.total('component_errors_total', { error_type: 'invalid_metric' }), 1);
  assert.is(env.metrics.total('component_discarded_events_total'), 1);
});

test('the token a metric came with (splunk_hec store_hec_token); indexer acknowledgements before delivery', async () => {
  let nextAck = 0;
  const target = await httpTarget((request) =>
    request.url === '/services/collector/ack'
      ? { status: 200, body: { acks: { 0: true, 1: true } } }
      : { status: 200, body: { text: 'Success', code: 0, ackId: nextAck++ } },
  );
  const { sink } = await build({ endpoint: target.uri, acknowledgements: { query_interval: 1 } });
  const gauge: Metric = { name: 'g', timestamp: T, kind: 'absolute', value: { type: 'gauge', value: 1 } };
  const statuses: BatchStatus[] = [];
  const finalizer = new BatchNotifier((status) => statuses.push(status));
  finalizer.hold();
  finalizer.hold();
  await sink.write({ ...metrics([gauge]), finalizer });
  await sink.write({ ...metrics([gauge], { splunk_hec_token: 'passed' }), finalizer });
  finalizer.release();
  await waitFor(
    () => statuses.length === 1,
    () => `acknowledged: ${statuses}`,
  );
  await sink.close();
  await target.close();
  assert.equal(statuses, ['delivered']);
  const posts = target.requests.filter((request) => request.url === '/services/collector/event');
  assert.equal(posts.map((request) => request.headers.authorization).sort(), ['Splunk passed', 'Splunk tok']);
  assert.ok(target.requests.some((request) => request.url === '/services/collector/ack'));
});

test.run();
