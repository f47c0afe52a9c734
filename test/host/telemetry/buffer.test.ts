import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BufferUtilization, Ewma } from '../../../host/telemetry/buffer.js';
import { MetricsRegistry } from '../../../host/telemetry/metrics.js';

test('Ewma: the first value as is, then alpha × the average so far + (1 − alpha) × the new value', () => {
  const ewma = new Ewma(0.9);
  assert.is(ewma.update(10), 10);
  assert.is(ewma.update(0), 9);
  assert.ok(Math.abs(ewma.update(0) - 8.1) < 1e-12);
  assert.ok(Math.abs(ewma.update(100) - 17.29) < 1e-12);
  const fast = new Ewma(0.1);
  fast.update(10);
  assert.is(fast.update(0), 1);
});

test('BufferUtilization: the limits once, then the level, the histogram of levels and the smoothed mean', () => {
  const metrics = new MetricsRegistry();
  const tags = { component_id: 't' };
  const buffer = new BufferUtilization(metrics, 'transform_buffer', tags, 200, 0.5);
  for (const level of [100, 60, 0]) buffer.record(level);
  const of = (name: string) => metrics.snapshot().find((sample) => sample.name === name)!.value;
  assert.equal(of('transform_buffer_max_size_events'), { type: 'gauge', value: 200 });
  assert.equal(of('transform_buffer_max_event_size'), { type: 'gauge', value: 200 });
  assert.equal(of('transform_buffer_utilization_level'), { type: 'gauge', value: 0 });
  assert.equal(of('transform_buffer_utilization_mean'), { type: 'gauge', value: 40 });
  const histogram = of('transform_buffer_utilization');
  assert.ok(histogram.type === 'histogram');
  assert.is(histogram.count, 3);
  assert.is(histogram.sum, 160);
  assert.is(histogram.buckets.find((bucket) => bucket.upperLimit === 100)!.count, 2);
});

test.run();
