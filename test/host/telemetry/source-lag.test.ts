import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeBatch } from '../../../abi/batch.js';
import { Timestamp } from '../../../abi/values.js';
import { MetricsRegistry } from '../../../host/telemetry/metrics.js';
import { SourceLag } from '../../../host/telemetry/source-lag.js';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const at = (msBefore: number) => new Timestamp(BigInt(NOW - msBefore) * 1_000_000n - 250n);

function lagOf(events: Parameters<typeof encodeBatch>[0], timestampKey = '.timestamp') {
  const metrics = new MetricsRegistry();
  new SourceLag(metrics, { component_id: 'in' }, timestampKey, () => NOW).record({
    bytes: encodeBatch(events, 0),
    count: events.length,
  });
  const sample = metrics.snapshot().find((s) => s.name === 'source_lag_time_seconds')!;
  assert.equal(sample.tags, { component_id: 'in' });
  assert.ok(sample.value.type === 'histogram');
  return { count: sample.value.count, sum: sample.value.sum, buckets: sample.value.buckets.filter((b) => b.count > 0) };
}

test('each log and metric event with a timestamp: the seconds from it to the send; events without one, and traces, are not counted', () => {
  const lag = lagOf([
    { kind: 'log', event: { a: 1, message: 'x', timestamp: at(2000), zz: [1, 2] } },
    { kind: 'log', event: { message: 'no timestamp' } },
    { kind: 'log', event: { message: 'not a timestamp', timestamp: '2026-11-26T11:59:00Z' } },
    { kind: 'metric', event: { name: 'm', kind: 'absolute', counter: { value: 1 }, timestamp: at(30) } },
    { kind: 'trace', event: { timestamp: at(1) } },
    { kind: 'log', event: { timestamp: at(-1000) } },
  ]);
  assert.is(lag.count, 3);
  assert.ok(Math.abs(lag.sum - (2 + 0.03 - 1 + 3 * 250e-9)) < 1e-6, String(lag.sum));
  assert.equal(lag.buckets, [
    { upperLimit: 0.005, count: 1 },
    { upperLimit: 0.05, count: 1 },
    { upperLimit: 2.5, count: 1 },
  ]);
});

test('the log timestamp is where log_schema.timestamp_key says; none when it is empty', () => {
  const events = [{ kind: 'log' as const, event: { meta: { at: [at(0), at(5000)] }, timestamp: at(1000) } }];
  assert.ok(Math.abs(lagOf(events, 'meta.at[1]').sum - 5) < 1e-6);
  assert.ok(Math.abs(lagOf(events, '.meta.at[-2]').sum) < 1e-6);
  assert.is(lagOf(events, '').count, 0);
  assert.is(lagOf(events, 'meta.nope').count, 0);
});

test.run();
