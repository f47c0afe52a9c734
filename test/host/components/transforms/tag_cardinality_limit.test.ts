// tag_cardinality_limit: which tags and metrics pass for given inputs in each mode, action and scope, with
// per-metric and per-tag overrides and the tracked-key cap, and Vector's internal metrics.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import tagCardinalityLimit from '../../../../host/components/transforms/tag_cardinality_limit.js';
import type { TransformResult, TransformRunner } from '../../../../host/components/component.js';
import { encodeBatch } from '../../../../abi/batch.js';
import type { RemapValue } from '../../../../abi/values.js';
import { metricEvent, readMetric, type Metric, type MetricTags } from '../../../../host/components/support/metric.js';
import { eventsOf, runnerOf } from '../../support/components.js';

const metric = (name: string, tags: MetricTags, namespace?: string): Metric => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  tags,
  kind: 'incremental',
  value: { type: 'counter', value: 1 },
});

async function limiter(options: object): Promise<TransformRunner> {
  return (await runnerOf(tagCardinalityLimit, options)).runner;
}

function run(
  runner: TransformRunner,
  metrics: Metric[],
): { tags: Array<MetricTags | undefined>; result: TransformResult } {
  const bytes = encodeBatch(
    metrics.map((each) => metricEvent(each)),
    0,
  );
  const result = runner.process({ bytes, count: metrics.length }) as TransformResult;
  const tags = eventsOf(result.outputs[0]!.batch).map((event) => readMetric(event as RemapValue).tags);
  return { tags, result };
}

test('drop_tag: past value_limit distinct values, a new value loses its tag; known values keep passing', async () => {
  const runner = await limiter({ mode: 'exact', value_limit: 2 });
  const { tags, result } = run(runner, [
    metric('m', { tag1: 'val1', other: 'x' }),
    metric('m', { tag1: 'val2' }),
    metric('m', { tag1: 'val3', other: 'x' }),
    metric('n', { tag1: 'val1' }),
  ]);
  assert.equal(tags, [{ tag1: 'val1', other: 'x' }, { tag1: 'val2' }, { other: 'x' }, { tag1: 'val1' }]);
  assert.equal(result.counters, [
    { name: 'value_limit_reached_total', count: 1 },
    { name: 'tag_value_limit_exceeded_total', count: 1 },
  ]);
  assert.equal(result.discarded, []);
  assert.equal(result.gauges, [{ name: 'tag_cardinality_tracked_keys', value: 2 }]);
});

test('drop_event: a metric with a value past the limit is dropped whole, and none of its tags is recorded', async () => {
  const runner = await limiter({ mode: 'exact', value_limit: 1, limit_exceeded_action: 'drop_event' });
  const { tags, result } = run(runner, [
    metric('m', { a: '1', b: 'x' }),
    metric('m', { a: '1', b: 'y' }),
    metric('m', { a: '2', c: 'new' }),
    metric('m', { c: 'z' }),
  ]);
  assert.equal(tags, [{ a: '1', b: 'x' }, { c: 'z' }]);
  assert.equal(result.discarded, [{ count: 2, intentional: true, reason: 'Tag value limit exceeded.' }]);
  assert.equal(result.counters, [{ name: 'tag_value_limit_exceeded_total', count: 2 }]);
});

test('probabilistic and exact_fingerprint modes count distinct values as exact does', async () => {
  for (const mode of ['probabilistic', 'exact_fingerprint']) {
    const runner = await limiter({ mode, value_limit: 2, cache_size_per_key: 1024 });
    const { tags } = run(runner, [
      metric('m', { t: 'a' }),
      metric('m', { t: 'a' }),
      metric('m', { t: 'b' }),
      metric('m', { t: 'c' }),
      metric('m', { t: 'b' }),
    ]);
    assert.equal(tags, [{ t: 'a' }, { t: 'a' }, { t: 'b' }, undefined, { t: 'b' }], mode);
  }
});

test('tracking_scope per_metric gives each metric its own values; global pools them', async () => {
  const input = [metric('m', { t: 'a' }), metric('n', { t: 'b' })];
  assert.equal(run(await limiter({ mode: 'exact', value_limit: 1 }), input).tags, [{ t: 'a' }, undefined]);
  assert.equal(run(await limiter({ mode: 'exact', value_limit: 1, tracking_scope: 'per_metric' }), input).tags, [
    { t: 'a' },
    { t: 'b' },
  ]);
});

test('per_metric_limits (matched by name and namespace) and per_tag_limits override the limits', async () => {
  const runner = await limiter({
    mode: 'exact',
    value_limit: 1,
    per_metric_limits: {
      wide: { mode: 'exact', value_limit: 3, per_tag_limits: { narrow: { mode: 'limit_override', value_limit: 1 } } },
      free: { mode: 'excluded', namespace: 'app' },
    },
    per_tag_limits: { id: { mode: 'excluded' } },
  });
  const { tags } = run(runner, [
    metric('other', { t: 'a', id: '1' }),
    metric('other', { t: 'b', id: '2' }),
    metric('wide', { t: 'a', narrow: 'x' }),
    metric('wide', { t: 'b', narrow: 'y' }),
    metric('wide', { t: 'c' }),
    metric('free', { t: 'z' }, 'app'),
    metric('free', { t: 'z' }, 'elsewhere'),
  ]);
  assert.equal(tags, [
    { t: 'a', id: '1' },
    { id: '2' },
    { t: 'a', narrow: 'x' },
    { t: 'b' },
    { t: 'c' },
    { t: 'z' },
    undefined,
  ]);
});

test('max_tracked_keys: (metric, tag) pairs past the cap pass unchecked and are counted', async () => {
  const runner = await limiter({ mode: 'exact', value_limit: 1, max_tracked_keys: 1, tracking_scope: 'per_metric' });
  const { tags, result } = run(runner, [metric('m', { t: 'a' }), metric('n', { t: 'a' }), metric('n', { t: 'b' })]);
  assert.equal(tags, [{ t: 'a' }, { t: 'a' }, { t: 'b' }]);
  assert.equal(result.counters?.find((counter) => counter.name === 'tag_cardinality_untracked_events_total')?.count, 2);
  assert.equal(result.gauges, [{ name: 'tag_cardinality_tracked_keys', value: 1 }]);
});

test('include_extended_tags tags the exceeded counter with the metric and the tag', async () => {
  const runner = await limiter({ mode: 'exact', value_limit: 0, internal_metrics: { include_extended_tags: true } });
  const { result } = run(runner, [metric('m', { t: 'a' })]);
  assert.equal(result.counters, [
    { name: 'tag_value_limit_exceeded_total', count: 1, tags: { metric_name: 'm', tag_key: 't' } },
  ]);
});

test('mode is required; a per-tag cache size outside probabilistic mode is a configuration error', () => {
  assert.is(tagCardinalityLimit.options.safeParse({}).success, false);
  const parsed = tagCardinalityLimit.options.safeParse({
    mode: 'exact',
    per_tag_limits: { t: { mode: 'limit_override', value_limit: 2, cache_size_per_key: 100 } },
  });
  assert.is(parsed.success, false);
  assert.match(JSON.stringify(parsed.error?.issues), 'inherited mode is not `probabilistic`');
});

test.run();
