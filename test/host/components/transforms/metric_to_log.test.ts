// metric_to_log: the exact log Vector makes of each metric type, the host tag and timestamp moved to the
// log schema's keys, tag values single or full, and Vector's log namespace.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import metricToLog from '../../../../host/components/transforms/metric_to_log.js';
import type { TransformResult } from '../../../../host/components/component.js';
import { decodeBatch, encodeBatch } from '../../../../abi/batch.js';
import { Timestamp } from '../../../../abi/values.js';
import { metricEvent, type Metric } from '../../../../host/components/support/metric.js';
import { runnerOf } from '../../support/components.js';

const nanos = 1_542_182_950_000_000_011n;
const ts = new Timestamp(nanos);

async function logsOf(options: unknown, metrics: Metric[], metadata: object = {}) {
  const { runner } = await runnerOf(metricToLog, options);
  const bytes = encodeBatch(
    metrics.map((metric) => metricEvent(metric, metadata)),
    0,
  );
  const result = runner.process({ bytes, count: metrics.length }) as TransformResult;
  const records = decodeBatch(result.outputs[0]!.batch.bytes).events;
  assert.ok(records.every((record) => record.kind === 'log'));
  return records;
}
const events = async (options: unknown, metrics: Metric[]) =>
  (await logsOf(options, metrics)).map((record) => record.event);

test('a counter: its fields, the host tag at the host key, the timestamp at the timestamp key', async () => {
  assert.equal(
    await events({ host_tag: 'host' }, [
      {
        name: 'counter',
        kind: 'absolute',
        tags: { host: 'localhost', some_tag: 'some_value' },
        timestamp: nanos,
        value: { type: 'counter', value: 1 },
      },
    ]),
    [
      {
        counter: { value: 1 },
        host: 'localhost',
        kind: 'absolute',
        name: 'counter',
        tags: { some_tag: 'some_value' },
        timestamp: ts,
      },
    ],
  );
});

test('each value type in Vector shape; interval and namespace kept; a set sorted; no tags left, no tags field', async () => {
  const base = { kind: 'absolute' as const, timestamp: nanos };
  assert.equal(
    await events({}, [
      { ...base, name: 'gauge', namespace: 'ns', interval_ms: 10, value: { type: 'gauge', value: 1.5 } },
      { ...base, name: 'set', tags: { host: 'only' }, value: { type: 'set', values: ['two', 'one'] } },
      {
        ...base,
        name: 'distro',
        value: { type: 'distribution', samples: [{ value: 1, rate: 10 }], statistic: 'histogram' },
      },
      {
        ...base,
        name: 'histo',
        value: { type: 'aggregated_histogram', buckets: [{ upper_limit: 1, count: 10 }], count: 30, sum: 50 },
      },
      {
        ...base,
        name: 'summary',
        value: { type: 'aggregated_summary', quantiles: [{ quantile: 50, value: 10 }], count: 30, sum: 50 },
      },
    ]),
    [
      { name: 'gauge', namespace: 'ns', interval_ms: 10n, kind: 'absolute', gauge: { value: 1.5 }, timestamp: ts },
      { name: 'set', host: 'only', kind: 'absolute', set: { values: ['one', 'two'] }, timestamp: ts },
      {
        name: 'distro',
        kind: 'absolute',
        distribution: { samples: [{ value: 1, rate: 10n }], statistic: 'histogram' },
        timestamp: ts,
      },
      {
        name: 'histo',
        kind: 'absolute',
        aggregated_histogram: { buckets: [{ upper_limit: 1, count: 10n }], count: 30n, sum: 50 },
        timestamp: ts,
      },
      {
        name: 'summary',
        kind: 'absolute',
        aggregated_summary: { quantiles: [{ quantile: 50, value: 10 }], count: 30n, sum: 50 },
        timestamp: ts,
      },
    ],
  );
});

test('metric_tag_values: single keeps the last value that is not bare; full keeps them all', async () => {
  const metric: Metric = {
    name: 'c',
    kind: 'incremental',
    timestamp: nanos,
    tags: { multi: ['a', 'b', null], bare: null, one: 'x' },
    value: { type: 'counter', value: 1 },
  };
  const [single] = (await events({}, [structuredClone(metric)])) as Array<{ tags: unknown }>;
  assert.equal(single!.tags, { multi: 'b', one: 'x' });
  const [full] = (await events({ metric_tag_values: 'full' }, [structuredClone(metric)])) as Array<{ tags: unknown }>;
  assert.equal(full!.tags, { multi: ['a', 'b', null], bare: null, one: 'x' });
});

test('a metric without a timestamp is stamped now; the metadata is kept', async () => {
  const before = BigInt(Date.now()) * 1_000_000n;
  const [record] = await logsOf({}, [{ name: 'c', kind: 'incremental', value: { type: 'counter', value: 1 } }], {
    trace: 'x',
  });
  assert.equal(record!.metadata, { trace: 'x' });
  const stamp = (record!.event as { timestamp: Timestamp }).timestamp.nanos;
  assert.ok(stamp >= before && stamp <= BigInt(Date.now()) * 1_000_000n);
});

test("Vector's namespace: the timestamp stays an RFC 3339 string, the host tag stays, the metadata marks it", async () => {
  const [record] = await logsOf({ log_namespace: true }, [
    { name: 'c', kind: 'incremental', tags: { host: 'h' }, timestamp: nanos, value: { type: 'counter', value: 1 } },
  ]);
  assert.equal(record!.event, {
    name: 'c',
    tags: { host: 'h' },
    timestamp: '2018-11-14T08:09:10.000000011Z',
    kind: 'incremental',
    counter: { value: 1 },
  });
  assert.equal(record!.metadata, { vector: {} });
});

test('an unknown timezone or tag value mode is a configuration error', () => {
  assert.is(metricToLog.options.safeParse({ timezone: 'Mars/Base' }).success, false);
  assert.is(metricToLog.options.safeParse({ metric_tag_values: 'some' }).success, false);
  assert.is(metricToLog.options.safeParse({ timezone: 'America/New_York', metric_tag_values: 'auto' }).success, true);
});

test.run();
