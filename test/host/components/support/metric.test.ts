// The metric model: a Metric written as a record of an input batch and read back is the same metric, each
// value type in Vector's native shape (floats stay floats), and series keys ignore tag order.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBatch, encodeBatch } from '../../../../abi/batch.js';
import { encode } from '../../../../abi/codec.js';
import type { RemapValue } from '../../../../abi/values.js';
import { BatchWriter } from '../../../../runtime/engine.js';
import {
  addNumber,
  appendMetric,
  appendSeriesMetric,
  encodeSeries,
  type Metric,
  metricEvent,
  nativeMetric,
  readMetric,
  seriesKey,
  tagValue,
  updateMetric,
} from '../../../../host/components/support/metric.js';

const base = {
  name: 'requests',
  namespace: 'app',
  tags: { host: 'a', path: '/x' },
  timestamp: 1_700_000_000_123_456_789n,
};
const metrics: Metric[] = [
  { ...base, kind: 'incremental', value: { type: 'counter', value: 3 } },
  { ...base, kind: 'absolute', interval_ms: 10_000, value: { type: 'gauge', value: -1.5 } },
  { name: 'users', kind: 'incremental', value: { type: 'set', values: ['a', 'b'] } },
  {
    name: 'rt',
    kind: 'incremental',
    value: { type: 'distribution', samples: [{ value: 2, rate: 3 }], statistic: 'summary' },
  },
  {
    name: 'rt',
    kind: 'absolute',
    value: {
      type: 'aggregated_histogram',
      buckets: [
        { upper_limit: 1, count: 2 },
        { upper_limit: Infinity, count: 5 },
      ],
      count: 5,
      sum: 12,
    },
  },
  {
    name: 'rt',
    kind: 'absolute',
    value: { type: 'aggregated_summary', quantiles: [{ quantile: 0.5, value: 2 }], count: 4, sum: 9 },
  },
];

test('each value type survives a batch round trip', () => {
  const { events } = decodeBatch(
    encodeBatch(
      metrics.map((metric) => metricEvent(metric)),
      0,
    ),
  );
  assert.equal(
    events.map((record) => record.kind),
    metrics.map(() => 'metric'),
  );
  assert.equal(
    events.map((record) => readMetric(record.event as RemapValue)),
    metrics,
  );
});

test("the native object uses Vector's field names and keeps integral floats as floats", () => {
  const native = nativeMetric(metrics[0]!);
  assert.equal(Object.keys(native), ['name', 'namespace', 'tags', 'timestamp', 'kind', 'counter']);
  // 3.0 encodes as a float, not as the integer 3.
  assert.not.equal(encode(native), encode({ ...native, counter: { value: 3n } }));
});

test('appendMetric writes the same record as encoding the native object', () => {
  const withInterval: Metric = { ...metrics[0]!, interval_ms: 250, tags: { multi: ['a', null] } };
  for (const metric of [...metrics, withInterval]) {
    const writer = new BatchWriter();
    appendMetric(writer, encode({ trace: 'x' }), metric);
    assert.ok(Buffer.from(writer.finish()).equals(encodeBatch([metricEvent(metric, { trace: 'x' })], 0)), metric.name);
  }
});

test('appendSeriesMetric of an encoded series writes the record appendMetric writes', () => {
  const tagged = { namespace: 'app', tags: { host: 'a', multi: ['b', null] } };
  const all: Metric[] = [
    ...metrics.map(({ interval_ms: _, ...metric }) => metric),
    ...metrics.map(({ interval_ms: _, ...metric }) => ({ ...metric, ...tagged })),
  ];
  for (const metric of all) {
    const [series, whole] = [new BatchWriter(), new BatchWriter()];
    appendSeriesMetric(series, encode({}), encodeSeries(metric), metric.value, metric.timestamp);
    appendMetric(whole, encode({}), metric);
    assert.equal([...series.finish()], [...whole.finish()], `${metric.name} ${metric.value.type}`);
  }
});

test('addNumber adds a counter or gauge given by its parts as updateMetric adds the metric', () => {
  const T = 1_700_000_000_000_000_000n;
  const held = (extra: Partial<Metric> = {}): Metric => ({
    name: 'c',
    kind: 'incremental',
    value: { type: 'counter', value: 2 },
    ...extra,
  });
  const cases: Array<[Metric, Metric]> = [
    [held({ timestamp: T }), held({ timestamp: T + 5n, value: { type: 'counter', value: 3 } })],
    [held({ timestamp: T, interval_ms: 10 }), held({ timestamp: T + 4_000_000n, interval_ms: 10 })],
    [held({ timestamp: T, interval_ms: 10 }), held({ timestamp: T + 2n ** 60n, interval_ms: 10 })],
    [held(), held({ timestamp: T, interval_ms: 10 })],
    [held(), { ...held(), value: { type: 'gauge', value: 1 } }],
  ];
  for (const [into, other] of cases) {
    const [byParts, whole] = [structuredClone(into), structuredClone(into)];
    const { type, value } = other.value as { type: 'counter' | 'gauge'; value: number };
    assert.is(addNumber(byParts, type, value, other.timestamp, other.interval_ms), updateMetric(whole, other));
    assert.equal(byParts, whole);
  }
});

test('series keys ignore tag order; tagValue reads the last of several values that is not bare', () => {
  const a: Metric = { name: 'n', kind: 'absolute', tags: { x: '1', y: '2' }, value: { type: 'gauge', value: 1 } };
  const b: Metric = { ...a, tags: { y: '2', x: '1' } };
  assert.is(seriesKey(a), seriesKey(b));
  assert.is.not(seriesKey(a), seriesKey({ ...a, namespace: 'other' }));
  assert.is(tagValue({ k: ['a', null, 'c'] }, 'k'), 'c');
  assert.is(tagValue({ k: ['a', null] }, 'k'), 'a');
  assert.is(tagValue({ k: null }, 'k'), null);
  assert.is(tagValue(undefined, 'k'), undefined);
});

test('seriesKey is the JSON of namespace, name and the tags sorted, whatever order the tags come in', () => {
  const reference = (metric: Metric) =>
    JSON.stringify([
      metric.namespace ?? null,
      metric.name,
      Object.entries(metric.tags ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ]);
  const value = { type: 'counter', value: 1 } as const;
  const metrics: Metric[] = [
    { name: 'a', kind: 'incremental', value },
    {
      name: 'a',
      namespace: 'n',
      kind: 'incremental',
      value,
      tags: { b: 'x', a: null, '10': ['p', null], '9': 'q', é: '"' },
    },
    { name: 'x"y', kind: 'absolute', value, tags: { z: 'ü', y: ['1', '2'] } },
  ];
  for (const metric of metrics) assert.is(seriesKey(metric), reference(metric));
  assert.is.not(seriesKey(metrics[0]!), seriesKey({ ...metrics[0]!, namespace: 'a' }));
});

test.run();
