// aggregate: the exact metrics each mode flushes for given inputs, what passes through at once, Vector's
// counters, and the finalizers (tickets) a flushed metric carries.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import aggregate, { createAggregate } from '../../../../host/components/transforms/aggregate.js';
import type { TransformResult, TransformRunner } from '../../../../host/components/component.js';
import { encodeBatch } from '../../../../abi/batch.js';
import { metricEvent, readMetric, type Metric } from '../../../../host/components/support/metric.js';
import type { RemapValue } from '../../../../abi/values.js';
import { eventsOf } from '../../support/components.js';

const T = 1_700_000_000_000_000_000n;
const counter = (name: string, value: number, extra: Partial<Metric> = {}): Metric => ({
  name,
  kind: 'incremental',
  value: { type: 'counter', value },
  ...extra,
});
const gauge = (name: string, value: number, extra: Partial<Metric> = {}): Metric => ({
  name,
  kind: 'absolute',
  value: { type: 'gauge', value },
  ...extra,
});

const batch = (metrics: Metric[], ticket?: number) => ({
  bytes: encodeBatch(
    metrics.map((metric) => metricEvent(metric)),
    0,
  ),
  count: metrics.length,
  ticket,
});
const metricsOf = (result: TransformResult) =>
  eventsOf(result.outputs[0]!.batch).map((event) => readMetric(event as RemapValue));

async function aggregator(mode?: string): Promise<TransformRunner> {
  const plan = await aggregate.prepare(aggregate.options.parse(mode ? { mode } : {}), {} as never);
  return createAggregate(plan);
}

test('Auto sums incremental metrics per series and keeps the latest absolute one, until the flush', async () => {
  const runner = await aggregator();
  const processed = runner.process(
    batch([
      counter('hits', 1, { tags: { path: '/a' }, timestamp: T }),
      counter('hits', 2, { tags: { path: '/b' }, timestamp: T }),
      gauge('mem', 10),
      counter('hits', 4, { tags: { path: '/a' }, timestamp: T + 5_000_000_000n }),
      gauge('mem', 7),
    ]),
  );
  assert.is(processed.outputs[0]!.batch.count, 0);
  assert.equal(processed.counters, [{ name: 'aggregate_events_recorded_total', count: 5 }]);
  const flushed = runner.flush!(false);
  assert.equal(metricsOf(flushed), [
    counter('hits', 5, { tags: { path: '/a' }, timestamp: T + 5_000_000_000n }),
    counter('hits', 2, { tags: { path: '/b' }, timestamp: T }),
    gauge('mem', 7),
  ]);
  assert.equal(flushed.counters, [{ name: 'aggregate_flushes_total', count: 1 }]);
  // Nothing is held after a flush.
  assert.is(runner.flush!(true).outputs[0]!.batch.count, 0);
});

test('intervals widen to cover both metrics when both have a timestamp and an interval', async () => {
  const runner = await aggregator('Sum');
  runner.process(
    batch([
      counter('c', 1, { timestamp: T, interval_ms: 1000 }),
      counter('c', 1, { timestamp: T + 3_000_000_000n, interval_ms: 1000 }),
    ]),
  );
  assert.equal(metricsOf(runner.flush!(true)), [counter('c', 2, { timestamp: T, interval_ms: 4000 })]);
});

test('Sum passes absolute metrics through; an update of another value type replaces and counts a failure', async () => {
  const runner = await aggregator('Sum');
  const processed = runner.process(
    batch([gauge('g', 1), counter('x', 1), { name: 'x', kind: 'incremental', value: { type: 'set', values: ['a'] } }]),
  );
  assert.equal(metricsOf(processed), [gauge('g', 1)]);
  assert.equal(processed.counters, [
    { name: 'aggregate_events_recorded_total', count: 2 },
    { name: 'aggregate_failed_updates', count: 1 },
  ]);
  assert.equal(metricsOf(runner.flush!(true)), [
    { name: 'x', kind: 'incremental', value: { type: 'set', values: ['a'] } },
  ]);
});

test('Latest keeps the last absolute value and passes incremental ones through', async () => {
  const runner = await aggregator('Latest');
  const processed = runner.process(batch([gauge('g', 1), counter('c', 3), gauge('g', 2)]));
  assert.equal(metricsOf(processed), [counter('c', 3)]);
  assert.equal(metricsOf(runner.flush!(true)), [gauge('g', 2)]);
});

test('Count counts the metrics of each series, with their kind', async () => {
  const runner = await aggregator('Count');
  runner.process(batch([gauge('g', 1), gauge('g', 5), counter('c', 3), gauge('g', 9)]));
  assert.equal(metricsOf(runner.flush!(true)), [
    { name: 'g', kind: 'absolute', value: { type: 'counter', value: 3 } },
    counter('c', 1),
  ]);
});

test('Diff gives the change since the previous flush; a counter that went back is sent whole and counted', async () => {
  const runner = await aggregator('Diff');
  runner.process(batch([gauge('g', 10), { ...counter('c', 5), kind: 'absolute' }]));
  assert.equal(metricsOf(runner.flush!(false)), [gauge('g', 10), { ...counter('c', 5), kind: 'absolute' }]);
  runner.process(batch([gauge('g', 12), gauge('g', 15), { ...counter('c', 2), kind: 'absolute' }]));
  const flushed = runner.flush!(false);
  assert.equal(metricsOf(flushed), [gauge('g', 5), { ...counter('c', 2), kind: 'absolute' }]);
  assert.equal(flushed.counters, [
    { name: 'aggregate_failed_updates', count: 1 },
    { name: 'aggregate_flushes_total', count: 1 },
  ]);
});

test('Max and Min keep the extreme absolute gauge', async () => {
  for (const [mode, expected] of [
    ['Max', 9],
    ['Min', -2],
  ] as const) {
    const runner = await aggregator(mode);
    const processed = runner.process(batch([gauge('g', 3), gauge('g', 9), counter('c', 1), gauge('g', -2)]));
    assert.equal(metricsOf(processed), [counter('c', 1)]);
    assert.equal(metricsOf(runner.flush!(true)), [gauge('g', expected)]);
  }
});

test('Mean and Stdev over the absolute gauges of a series; other absolute values are taken and left out', async () => {
  const inputs = [
    gauge('g', 2),
    gauge('g', 4),
    gauge('g', 4),
    gauge('g', 4),
    gauge('g', 5),
    gauge('g', 5),
    gauge('g', 7),
    gauge('g', 9),
  ];
  const set: Metric = { name: 's', kind: 'absolute', value: { type: 'set', values: ['a'] } };
  const mean = await aggregator('Mean');
  mean.process(batch([...inputs, set]));
  assert.equal(metricsOf(mean.flush!(true)), [gauge('g', 5)]);
  const stdev = await aggregator('Stdev');
  stdev.process(batch(inputs));
  assert.equal(metricsOf(stdev.flush!(true)), [gauge('g', 2)]);
});

test('a batch whose metrics are held is retained; the flush carries its ticket and releases one replaced', async () => {
  const runner = await aggregator();
  const first = runner.process(batch([gauge('g', 1)], 1));
  assert.is(first.retains, true);
  const second = runner.process(batch([gauge('g', 2), counter('c', 1)], 2));
  // Batch 1's only metric was replaced: nothing holds it any more.
  assert.is(second.retains, true);
  assert.equal(second.releases, [1]);
  const passed = runner.process(batch([], 3));
  assert.is(passed.retains, false);
  const flushed = runner.flush!(true);
  assert.equal(flushed.outputs[0]!.tickets, [2]);
  assert.equal(flushed.releases, [2]);
});

test('interval_ms is the flush period; 10 s by default', () => {
  assert.is(aggregate.flushPeriodMs!(aggregate.options.parse({})), 10_000);
  assert.is(aggregate.flushPeriodMs!(aggregate.options.parse({ interval_ms: 500 })), 500);
  assert.is(aggregate.options.safeParse({ mode: 'Average' }).success, false);
});

test.run();
