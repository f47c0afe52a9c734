// Metric events on the JS side: Vector's metric model (`vector_core::event::Metric`) as typed data, read from
// and written to the native metric object a metric record carries (docs/abi.md §2.3 and §9). Sources build a
// `Metric` and send `metricEvent(metric)`; transforms and sinks read a decoded record with `readMetric`.

import { setTimeout as sleep } from 'node:timers/promises';
import { IntegralFloat } from '../../../abi/codec.js';
import { encodeBatch, type InputEvent } from '../../../abi/batch.js';
import { BatchReader } from '../../../runtime/engine.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import { type EventBatch, splitBatch } from '../../topology/batch.js';
import type { SourceContext } from '../component.js';

type MetricKind = 'incremental' | 'absolute';

/** A tag's values: one string (`metric_tag_values: single`), or several, where null is a bare tag. */
export type MetricTags = Record<string, string | null | Array<string | null>>;

interface Sample {
  value: number;
  rate: number;
}
interface Bucket {
  upper_limit: number;
  count: number;
}
interface Quantile {
  quantile: number;
  value: number;
}

/** Exactly one of Vector's value types. */
export type MetricValue =
  | { type: 'counter'; value: number }
  | { type: 'gauge'; value: number }
  | { type: 'set'; values: string[] }
  | { type: 'distribution'; samples: Sample[]; statistic: 'histogram' | 'summary' }
  | { type: 'aggregated_histogram'; buckets: Bucket[]; count: number; sum: number }
  | { type: 'aggregated_summary'; quantiles: Quantile[]; count: number; sum: number }
  | { type: 'sketch'; sketch: RemapValue };

export interface Metric {
  name: string;
  namespace?: string;
  tags?: MetricTags;
  /** Nanoseconds since the epoch. */
  timestamp?: bigint;
  interval_ms?: number;
  kind: MetricKind;
  value: MetricValue;
}

const METRIC_VALUE_TYPES = [
  'counter',
  'gauge',
  'set',
  'distribution',
  'aggregated_histogram',
  'aggregated_summary',
  'sketch',
] as const satisfies ReadonlyArray<MetricValue['type']>;

const float = (value: number) => new IntegralFloat(value);

/** The native object of a metric, in Vector's field order; floats stay floats. */
export function nativeMetric(metric: Metric): Record<string, unknown> {
  const native: Record<string, unknown> = { name: metric.name };
  if (metric.namespace !== undefined) native.namespace = metric.namespace;
  if (metric.tags !== undefined && Object.keys(metric.tags).length > 0) native.tags = metric.tags;
  if (metric.timestamp !== undefined) native.timestamp = new Timestamp(metric.timestamp);
  if (metric.interval_ms !== undefined) native.interval_ms = metric.interval_ms;
  native.kind = metric.kind;
  const value = metric.value;
  switch (value.type) {
    case 'counter':
    case 'gauge':
      native[value.type] = { value: float(value.value) };
      break;
    case 'set':
      native.set = { values: value.values };
      break;
    case 'distribution':
      native.distribution = {
        samples: value.samples.map((sample) => ({ value: float(sample.value), rate: sample.rate })),
        statistic: value.statistic,
      };
      break;
    case 'aggregated_histogram':
      native.aggregated_histogram = {
        buckets: value.buckets.map((bucket) => ({ upper_limit: float(bucket.upper_limit), count: bucket.count })),
        count: value.count,
        sum: float(value.sum),
      };
      break;
    case 'aggregated_summary':
      native.aggregated_summary = {
        quantiles: value.quantiles.map((q) => ({ quantile: float(q.quantile), value: float(q.value) })),
        count: value.count,
        sum: float(value.sum),
      };
      break;
    case 'sketch':
      native.sketch = value.sketch;
      break;
  }
  return native;
}

/** A metric as a record of an input batch (`encodeBatch`). */
export function metricEvent(metric: Metric, metadata?: object): InputEvent {
  return { kind: 'metric', metadata, event: nativeMetric(metric) };
}

type Fields = { [key: string]: RemapValue };

const number = (value: RemapValue | undefined): number =>
  typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : 0;

function tagsOf(value: RemapValue | undefined): MetricTags | undefined {
  if (value === null || value === undefined || typeof value !== 'object') return undefined;
  const tags: MetricTags = {};
  for (const [key, tag] of Object.entries(value as Fields)) {
    if (Array.isArray(tag)) tags[key] = tag.map((item) => (typeof item === 'string' ? item : null));
    else tags[key] = typeof tag === 'string' ? tag : null;
  }
  return tags;
}

function valueOf(native: Fields): MetricValue {
  for (const type of METRIC_VALUE_TYPES) {
    const fields = native[type] as Fields | null | undefined;
    if (fields === undefined || fields === null) continue;
    const list = (key: string) => (Array.isArray(fields[key]) ? (fields[key] as Fields[]) : []);
    switch (type) {
      case 'counter':
      case 'gauge':
        return { type, value: number(fields.value) };
      case 'set':
        return { type, values: (fields.values as RemapValue[]).map(String) };
      case 'distribution':
        return {
          type,
          samples: list('samples').map((sample) => ({ value: number(sample.value), rate: number(sample.rate) })),
          statistic: fields.statistic === 'summary' ? 'summary' : 'histogram',
        };
      case 'aggregated_histogram':
        return {
          type,
          buckets: list('buckets').map((b) => ({ upper_limit: number(b.upper_limit), count: number(b.count) })),
          count: number(fields.count),
          sum: number(fields.sum),
        };
      case 'aggregated_summary':
        return {
          type,
          quantiles: list('quantiles').map((q) => ({ quantile: number(q.quantile), value: number(q.value) })),
          count: number(fields.count),
          sum: number(fields.sum),
        };
      case 'sketch':
        return { type, sketch: fields };
    }
  }
  throw new TypeError(`metric ${String(native.name)} has no value`);
}

/** The metric a decoded metric record's event holds. */
export function readMetric(event: RemapValue): Metric {
  const native = event as Fields;
  const metric: Metric = {
    name: String(native.name),
    kind: native.kind === 'incremental' ? 'incremental' : 'absolute',
    value: valueOf(native),
  };
  if (typeof native.namespace === 'string') metric.namespace = native.namespace;
  const tags = tagsOf(native.tags);
  if (tags !== undefined) metric.tags = tags;
  if (native.timestamp instanceof Timestamp) metric.timestamp = native.timestamp.nanos;
  if (native.interval_ms !== undefined && native.interval_ms !== null) metric.interval_ms = number(native.interval_ms);
  return metric;
}

/** The metrics of a batch, in order (its other events left out). */
export function* batchMetrics(batch: EventBatch): Generator<Metric> {
  const reader = new BatchReader(batch.bytes);
  for (const view of reader)
    if (view.kind === 'metric') yield readMetric(reader.decodeRecord(view).event as RemapValue);
}

/** A tag's single value as `metric_tag_values: single` exposes it: the last value, null for a bare tag. */
export function tagValue(tags: MetricTags | undefined, key: string): string | null | undefined {
  const value = tags?.[key];
  return Array.isArray(value) ? value.at(-1) : value;
}

/** The identity of a series: name, namespace and tags (Vector's `MetricSeries`), as a map key. */
export function seriesKey(metric: Metric): string {
  const tags = Object.entries(metric.tags ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([metric.namespace ?? null, metric.name, tags]);
}

/**
 * Adds an incremental value into `into` in place, as Vector's `MetricValue::add`: counters and gauges sum,
 * sets unite, distributions of one statistic and histograms of the same bounds merge. False when the two
 * cannot be added (other types, other bounds, summaries, sketches): `into` is then unchanged. Arrays are
 * replaced, never changed, so a shallow copy of a value is enough to add into.
 */
export function addValue(into: MetricValue, from: MetricValue): boolean {
  if ((into.type === 'counter' || into.type === 'gauge') && from.type === into.type) {
    into.value += from.value;
    return true;
  }
  if (into.type === 'set' && from.type === 'set') {
    into.values = [...new Set([...into.values, ...from.values])];
    return true;
  }
  if (into.type === 'distribution' && from.type === 'distribution' && into.statistic === from.statistic) {
    into.samples = [...into.samples, ...from.samples];
    return true;
  }
  if (
    into.type === 'aggregated_histogram' &&
    from.type === 'aggregated_histogram' &&
    into.buckets.length === from.buckets.length &&
    into.buckets.every((bucket, i) => bucket.upper_limit === from.buckets[i]!.upper_limit)
  ) {
    into.buckets = into.buckets.map((bucket, i) => ({ ...bucket, count: bucket.count + from.buckets[i]!.count }));
    into.count += from.count;
    into.sum += from.sum;
    return true;
  }
  return false;
}

/**
 * Vector's `MetricNormalizer` for sinks that want counters incremental and gauges absolute (influxdb):
 * an absolute counter becomes the increase since the series' previous value (the first, and one that went
 * down, only set the reference: nothing is sent), an incremental gauge becomes absolute by adding it to the
 * series' last value; the other metrics pass as they are.
 */
export class MetricNormalizer {
  private readonly last = new Map<string, number>();

  normalize(metric: Metric): Metric | undefined {
    const { value } = metric;
    if (value.type === 'counter') {
      if (metric.kind === 'incremental') return metric;
      const key = seriesKey(metric);
      const previous = this.last.get(key);
      this.last.set(key, value.value);
      if (previous === undefined || value.value < previous) return undefined;
      return { ...metric, kind: 'incremental', value: { type: 'counter', value: value.value - previous } };
    }
    if (value.type === 'gauge') {
      const key = seriesKey(metric);
      const absolute = metric.kind === 'absolute' ? value.value : (this.last.get(key) ?? 0) + value.value;
      this.last.set(key, absolute);
      return { ...metric, kind: 'absolute', value: { type: 'gauge', value: absolute } };
    }
    return metric;
  }
}

/** Vector's `DistributionStatistic` of a distribution's samples (those with a positive rate); undefined
 * without any. `quantiles` are each paired with their value. */
export function distributionStatistic(
  samples: readonly Sample[],
  quantiles: readonly number[],
):
  | { min: number; max: number; median: number; avg: number; sum: number; count: number; quantiles: number[][] }
  | undefined {
  const bins = samples.filter((sample) => sample.rate > 0).map((sample) => ({ ...sample }));
  if (bins.length === 0) return undefined;
  bins.sort((a, b) => a.value - b.value);
  const sum = bins.reduce((total, sample) => total + sample.value * sample.rate, 0);
  for (let i = 1; i < bins.length; i++) bins[i]!.rate += bins[i - 1]!.rate;
  const count = bins.at(-1)!.rate;
  /** The first bin whose cumulative rate reaches the rank (Vector's binary search). */
  const quantile = (p: number) => {
    const rank = Math.round(p * count);
    return (bins.find((bin) => bin.rate >= rank) ?? bins.at(-1)!).value;
  };
  return {
    min: bins[0]!.value,
    max: bins.at(-1)!.value,
    median: quantile(0.5),
    avg: sum / count,
    sum,
    count,
    quantiles: quantiles.map((p) => [p, quantile(p)]),
  };
}

/** A scraping source's run: `scrape` at once, then every `intervalSecs` on a fixed schedule (a slow scrape
 * does not shift the next), each scrape's events sent in batches of at most `chunkSize`, until shutdown. */
export async function scrapeEvery(
  intervalSecs: number,
  context: SourceContext,
  chunkSize: number,
  scrape: () => InputEvent[] | Promise<InputEvent[]>,
): Promise<void> {
  const signal = context.shutdown;
  let next = performance.now();
  while (!signal.aborted) {
    const events = await scrape();
    if (events.length > 0) {
      for (const batch of splitBatch({ bytes: encodeBatch(events, 0), count: events.length }, chunkSize))
        await context.send(batch);
    }
    next += intervalSecs * 1000;
    await sleep(Math.max(0, next - performance.now()), undefined, { signal }).catch(() => undefined);
  }
}
