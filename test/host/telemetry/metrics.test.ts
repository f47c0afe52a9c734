// The registry's expiry (expire_metrics_secs, expire_metrics_per_metric_set), on a fake clock.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { globalSchema } from '../../../host/config/global.js';
import { metricExpiry } from '../../../host/telemetry/expiry.js';
import { MetricsRegistry } from '../../../host/telemetry/metrics.js';

function registry(globals: unknown) {
  const clock = { now: 1_000_000 };
  const metrics = new MetricsRegistry({ now: () => clock.now, expiry: metricExpiry(globalSchema.parse(globals)) });
  const names = () =>
    metrics
      .snapshot()
      .map((sample) => `${sample.name}${JSON.stringify(sample.tags)}`)
      .sort();
  return { clock, metrics, names };
}

test('expire_metrics_secs: a series not updated within it leaves the snapshot; one updated meanwhile stays', () => {
  const { clock, metrics, names } = registry({ expire_metrics_secs: 10 });
  const idle = metrics.counter('idle_total');
  const busy = metrics.gauge('busy');
  idle.increment();
  busy.set(1);
  clock.now += 6000;
  busy.set(2);
  clock.now += 4000;
  assert.equal(names(), ['busy{}', 'idle_total{}'], 'exactly 10 s idle: not yet expired');
  clock.now += 1;
  assert.equal(names(), ['busy{}']);
  assert.is(metrics.total('idle_total'), 0);
});

test('an expired counter updated later restarts at zero; a histogram starts empty', () => {
  const { clock, metrics } = registry({ expire_metrics_secs: 1 });
  const counter = metrics.counter('sent_total', { component_id: 'a' });
  const histogram = metrics.histogram('lag');
  counter.increment(5);
  histogram.record(3);
  clock.now += 2000;
  assert.equal(metrics.snapshot(), []);
  counter.increment(2);
  histogram.record(0.5);
  const samples = metrics.snapshot();
  assert.equal(samples.find((s) => s.name === 'sent_total')?.value, { type: 'counter', value: 2 });
  const lag = samples.find((s) => s.name === 'lag')!.value;
  assert.ok(lag.type === 'histogram' && lag.count === 1 && lag.sum === 0.5);
  assert.is(samples.find((s) => s.name === 'sent_total')!.updatedAt, clock.now);
});

test('expiry: 300 s by default, negative never, the deprecated expire_metrics {secs, nsecs}', () => {
  const byDefault = registry({});
  byDefault.metrics.counter('c').increment();
  byDefault.clock.now += 300_000;
  assert.equal(byDefault.names(), ['c{}']);
  byDefault.clock.now += 1;
  assert.equal(byDefault.names(), []);

  const never = registry({ expire_metrics_secs: -1 });
  never.metrics.counter('c').increment();
  never.clock.now += 1e12;
  assert.equal(never.names(), ['c{}']);

  const deprecated = registry({ expire_metrics: { secs: 2, nsecs: 500_000_000 } });
  deprecated.metrics.counter('c').increment();
  deprecated.clock.now += 2500;
  assert.equal(deprecated.names(), ['c{}']);
  deprecated.clock.now += 1;
  assert.equal(deprecated.names(), []);
});

test('expire_metrics_per_metric_set: the first set matching name (exact or regex) and labels (all or any) applies', () => {
  const { clock, metrics, names } = registry({
    expire_metrics_secs: 100,
    expire_metrics_per_metric_set: [
      { name: { type: 'exact', value: 'utilization' }, expire_secs: -1 },
      {
        name: { type: 'regex', pattern: 'sent_(events|bytes)' },
        labels: {
          type: 'all',
          matchers: [
            { type: 'exact', key: 'component_kind', value: 'sink' },
            { type: 'regex', key: 'component_id', value_pattern: '^out' },
          ],
        },
        expire_secs: 1,
      },
      {
        labels: {
          type: 'any',
          matchers: [
            { type: 'exact', key: 'component_id', value: 'x' },
            { type: 'regex', key: 'output', value_pattern: 'err' },
          ],
        },
        expire_secs: 5,
      },
    ],
  });
  metrics.gauge('utilization', { component_id: 'x' }).set(1);
  metrics.counter('component_sent_events_total', { component_kind: 'sink', component_id: 'out_a' }).increment();
  metrics.counter('component_sent_events_total', { component_kind: 'sink', component_id: 'a_out' }).increment();
  metrics.counter('component_received_events_total', { component_id: 'x' }).increment();
  metrics.counter('component_received_events_total', { component_id: 'y', output: 'errors' }).increment();
  metrics.counter('component_received_events_total', { component_id: 'z' }).increment();
  clock.now += 2000;
  assert.equal(names(), [
    'component_received_events_total{"component_id":"x"}',
    'component_received_events_total{"component_id":"y","output":"errors"}',
    'component_received_events_total{"component_id":"z"}',
    'component_sent_events_total{"component_kind":"sink","component_id":"a_out"}',
    'utilization{"component_id":"x"}',
  ]);
  clock.now += 4000;
  assert.equal(names(), [
    'component_received_events_total{"component_id":"z"}',
    'component_sent_events_total{"component_kind":"sink","component_id":"a_out"}',
    'utilization{"component_id":"x"}',
  ]);
  clock.now += 1e9;
  assert.equal(names(), ['utilization{"component_id":"x"}']);
});

test('expire_metrics_per_metric_set: an invalid regex is a configuration error naming the option', () => {
  const result = globalSchema.safeParse({
    expire_metrics_per_metric_set: [{ name: { type: 'regex', pattern: 'a(' }, expire_secs: 1 }],
  });
  assert.is(result.success, false);
  const issue = result.error!.issues[0]!;
  assert.equal(issue.path, ['expire_metrics_per_metric_set', 0, 'name', 'pattern']);
  assert.is(issue.message, 'regex parse error: unterminated group');
});

test.run();
