// Metric events on the JS side: Vector's metric model (`vector_core::event::Metric`) as typed data, read from
// and written to the native metric object a metric record carries (docs/abi.md §2.3 and §9). Sources build a
// `Metric` and send `metricEvent(metric)`; transforms and sinks read a decoded record with `readMetric`.

import { setTimeout as sleep } from 'node:timers/promises';
import { ByteWriter, encodeValue, IntegralFloat, sortedKeys, Wire, writeTimestamp } from '../../../abi/codec.js';
import type { BatchWriter } from '../../../runtime/engine.js';
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
  native[metric.value.type] = nativeValue(metric.value);
  return native;
}

/** The native object of a metric's value (floats stay floats). */
function nativeValue(value: MetricValue): unknown {
  switch (value.type) {
    case 'counter':
    case 'gauge':
      return { value: float(value.value) };
    case 'set':
      return { values: value.values };
    case 'distribution':
      return {
        samples: value.samples.map((sample) => ({ value: float(sample.value), rate: sample.rate })),
        statistic: value.statistic,
      };
    case 'aggregated_histogram':
      return {
        buckets: value.buckets.map((bucket) => ({ upper_limit: float(bucket.upper_limit), count: bucket.count })),
        count: value.count,
        sum: float(value.sum),
      };
    case 'aggregated_summary':
      return {
        quantiles: value.quantiles.map((q) => ({ quantile: float(q.quantile), value: float(q.value) })),
        count: value.count,
        sum: float(value.sum),
      };
    case 'sketch':
      return value.sketch;
  }
}

/** Appends `metric` to a batch as a metric record with the given encoded metadata. */
export function appendMetric(batch: BatchWriter, metadata: Uint8Array, metric: Metric): void {
  batch.appendWriting('metric', metadata, encodeMetric, metric);
}

/** A metric's kind and series (name, namespace, tags), encoded as a metric record holds them: its fields
 * `kind` to `tags`, for the metrics of a series to share (`appendSeriesMetric`). */
export interface EncodedSeries {
  bytes: Uint8Array;
  /** Where the `tags` field starts in `bytes` (the end without tags): a set's or a sketch's value goes there,
   * its name sorting between. */
  tagsAt: number;
  /** How many fields `bytes` holds. */
  count: number;
}

type Series = Pick<Metric, 'kind' | 'name' | 'namespace' | 'tags'>;

/** Where `encodeSeries` encodes, before its copy. */
const scratch = new ByteWriter();

export function encodeSeries(series: Series): EncodedSeries {
  scratch.clear();
  const tagsAt = writeSeriesHead(scratch, series);
  writeTagsField(scratch, series.tags);
  return { bytes: new Uint8Array(scratch.finish()), tagsAt, count: seriesCount(series) };
}

/** Appends a metric of an encoded series (without an interval) as a metric record with the given encoded
 * metadata: the same record as `appendMetric` of the metric whole, its series encoded once for many. */
export function appendSeriesMetric(
  batch: BatchWriter,
  metadata: Uint8Array,
  series: EncodedSeries,
  value: MetricValue,
  timestamp: bigint | undefined,
): void {
  seriesMetric.series = series;
  seriesMetric.value = value;
  seriesMetric.timestamp = timestamp;
  batch.appendWriting('metric', metadata, writeSeriesMetric, seriesMetric);
}

/** What `appendSeriesMetric` writes, one object for every call. */
const seriesMetric: { series: EncodedSeries; value: MetricValue; timestamp: bigint | undefined } = {
  series: { bytes: new Uint8Array(0), tagsAt: 0, count: 0 },
  value: { type: 'counter', value: 0 },
  timestamp: undefined,
};

/** `encodeValue(w, nativeMetric(metric))` without the generic walk (log_to_metric and aggregate write a
 * metric per event): the fields written in the byte order of their names (docs/abi.md §1), counters and
 * gauges directly. */
function encodeMetric(w: ByteWriter, metric: Metric): void {
  writeMetric(w, metric.value, metric.interval_ms, metric.timestamp, metric);
}

function writeSeriesMetric(
  w: ByteWriter,
  { series, value, timestamp }: { series: EncodedSeries; value: MetricValue; timestamp: bigint | undefined },
): void {
  writeMetric(w, value, undefined, timestamp, series);
}

/** Writes a metric's object, its series from a metric or encoded already. */
function writeMetric(
  w: ByteWriter,
  value: MetricValue,
  interval: number | undefined,
  timestamp: bigint | undefined,
  series: Series | EncodedSeries,
): void {
  const encoded = 'bytes' in series ? series : undefined;
  const count = encoded ? encoded.count : seriesCount(series as Series);
  w.u8(Wire.Object);
  w.u32(1 + count + Number(timestamp !== undefined) + Number(interval !== undefined));
  const lengthAt = w.reserve(4);
  // Value names sort before `interval_ms`, but `set` and `sketch`, which sort between `namespace` and `tags`.
  const valueFirst = value.type !== 'set' && value.type !== 'sketch';
  if (valueFirst) writeValue(w, value);
  if (interval !== undefined) {
    w.text('interval_ms');
    encodeValue(w, interval);
  }
  if (encoded === undefined) {
    writeSeriesHead(w, series as Series);
    if (!valueFirst) writeValue(w, value);
    writeTagsField(w, (series as Series).tags);
  } else if (valueFirst) w.raw(encoded.bytes);
  else {
    w.raw(encoded.bytes.subarray(0, encoded.tagsAt));
    writeValue(w, value);
    w.raw(encoded.bytes.subarray(encoded.tagsAt));
  }
  if (timestamp !== undefined) {
    w.text('timestamp');
    writeTimestamp(w, timestamp);
  }
  w.view.setUint32(lengthAt, w.length - lengthAt - 4, true);
}

/** How many fields a series takes: `kind`, `name`, and `namespace` and `tags` when it has them. */
const seriesCount = (series: Series) =>
  2 + Number(series.namespace !== undefined) + Number(series.tags !== undefined && hasKeys(series.tags));

/** Writes the fields `kind` to `namespace`; returns where they end. */
function writeSeriesHead(w: ByteWriter, series: Series): number {
  writeText(w, 'kind', series.kind);
  writeText(w, 'name', series.name);
  if (series.namespace !== undefined) writeText(w, 'namespace', series.namespace);
  return w.length;
}

/** Writes the field `tags`, when there are any. */
function writeTagsField(w: ByteWriter, tags: MetricTags | undefined): void {
  if (tags === undefined || !hasKeys(tags)) return;
  w.text('tags');
  writeTags(w, tags);
}

function writeText(w: ByteWriter, key: string, text: string): void {
  w.text(key);
  w.u8(Wire.Bytes);
  w.text(text);
}

/** The value's field: its type, then its native object. */
function writeValue(w: ByteWriter, value: MetricValue): void {
  if (value.type === 'counter' || value.type === 'gauge') {
    w.raw(value.type === 'counter' ? COUNTER_HEAD : GAUGE_HEAD);
    return w.f64(value.value);
  }
  w.text(value.type);
  encodeValue(w, nativeValue(value));
}

/** A counter's or gauge's field up to its float (its name, an object of one field, `value`, the float's tag):
 * copied at once, as writing its parts one by one was much of writing a metric. */
function numberHead(type: 'counter' | 'gauge'): Uint8Array {
  const w = new ByteWriter();
  w.text(type);
  w.u8(Wire.Object);
  w.u32(1);
  w.u32(4 + 'value'.length + 9);
  w.text('value');
  w.u8(Wire.Float);
  return new Uint8Array(w.finish());
}
const COUNTER_HEAD = numberHead('counter');
const GAUGE_HEAD = numberHead('gauge');

/** `encodeValue(w, tags)` for what tags hold: strings, nulls and arrays of them. */
function writeTags(w: ByteWriter, tags: MetricTags): void {
  const keys = sortedKeys(Object.keys(tags));
  w.u8(Wire.Object);
  w.u32(keys.length);
  const lengthAt = w.reserve(4);
  for (const key of keys) {
    w.text(key);
    const value = tags[key]!;
    if (!Array.isArray(value)) writeTag(w, value);
    else {
      w.u8(Wire.Array);
      w.u32(value.length);
      const itemsAt = w.reserve(4);
      for (const item of value) writeTag(w, item);
      w.view.setUint32(itemsAt, w.length - itemsAt - 4, true);
    }
  }
  w.view.setUint32(lengthAt, w.length - lengthAt - 4, true);
}

function writeTag(w: ByteWriter, value: string | null): void {
  if (value === null) return w.u8(Wire.Null);
  w.u8(Wire.Bytes);
  w.text(value);
}

function hasKeys(object: object): boolean {
  for (const _ in object) return true;
  return false;
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

/** A tag's single value as `metric_tag_values: single` exposes it (Vector's `as_single`): the last value
 * that is not bare; null for a bare tag. */
export function tagValue(tags: MetricTags | undefined, key: string): string | null | undefined {
  const value = tags?.[key];
  return Array.isArray(value) ? (value.findLast((item) => item !== null) ?? null) : value;
}

/** The tags as `metric_tag_values: single` leaves them (Vector's `reduce_tags_to_single`): each its single
 * value, bare ones removed. */
export function singleTags(tags: MetricTags): Record<string, string> {
  const single: Record<string, string> = {};
  for (const key of Object.keys(tags)) {
    const value = tagValue(tags, key);
    if (typeof value === 'string') single[key] = value;
  }
  return single;
}

/** Vector's `MetricValue::add`: `value` plus `other`, or undefined when they do not add up (other types, other
 * statistics or bucket limits; aggregated summaries and sketches never do). */
function addValues(value: MetricValue, other: MetricValue): MetricValue | undefined {
  switch (value.type) {
    case 'counter':
    case 'gauge':
      return other.type === value.type ? { type: value.type, value: value.value + other.value } : undefined;
    case 'set':
      return other.type === 'set'
        ? { type: 'set', values: [...new Set([...value.values, ...other.values])].sort() }
        : undefined;
    case 'distribution':
      return other.type === 'distribution' && other.statistic === value.statistic
        ? { ...value, samples: [...value.samples, ...other.samples] }
        : undefined;
    case 'aggregated_histogram':
      if (other.type !== 'aggregated_histogram' || !sameLimits(value.buckets, other.buckets)) return undefined;
      return {
        type: value.type,
        buckets: value.buckets.map((bucket, i) => ({ ...bucket, count: bucket.count + other.buckets[i]!.count })),
        count: value.count + other.count,
        sum: value.sum + other.sum,
      };
    default:
      return undefined;
  }
}

const sameLimits = (a: Bucket[], b: Bucket[]) =>
  a.length === b.length && a.every((bucket, i) => bucket.upper_limit === b[i]!.upper_limit);

const NANOS_PER_MS = 1_000_000n;

/**
 * Vector's `MetricData::update`: adds `other`'s value into `metric` and widens its time (`widenTime`).
 * Returns false, leaving `metric` as it was, when the values do not add up.
 */
export function updateMetric(metric: Metric, other: Metric): boolean {
  const value = addValues(metric.value, other.value);
  if (value === undefined || !widenTime(metric, other.timestamp, other.interval_ms)) return false;
  metric.value = value;
  return true;
}

/** `updateMetric` of a counter or gauge given by its parts, its value added in place (aggregate adds one per
 * metric it records: no metric and value objects to make for it). */
export function addNumber(
  metric: Metric,
  type: 'counter' | 'gauge',
  value: number,
  timestamp: bigint | undefined,
  interval: number | undefined,
): boolean {
  const held = metric.value;
  if (held.type !== type || !widenTime(metric, timestamp, interval)) return false;
  (held as { value: number }).value += value;
  return true;
}

/** Widens `metric`'s time to cover another metric's: with both timestamps and intervals, the window from the
 * earlier start to the later end; else the later timestamp, no interval. False, leaving it as it was, when
 * the window does not fit an interval. */
function widenTime(metric: Metric, t2: bigint | undefined, i2: number | undefined): boolean {
  const [t1, i1] = [metric.timestamp, metric.interval_ms];
  let timestamp = t1 ?? t2;
  let interval: number | undefined;
  if (t1 !== undefined && t2 !== undefined) {
    const firstIsLater = t1 > t2;
    const [start, end] = firstIsLater ? [t2, t1] : [t1, t2];
    if (i1 !== undefined && i2 !== undefined) {
      const delta = Number((end - start) / NANOS_PER_MS);
      if (delta > 0xffffffff) return false;
      timestamp = start;
      interval = delta + (firstIsLater ? i1 : i2) || undefined;
    } else timestamp = end;
  }
  setTime(metric, timestamp, interval);
  return true;
}

function setTime(metric: Metric, timestamp: bigint | undefined, interval: number | undefined): void {
  // `delete` only of what is there: deleting is slow even where there is nothing to delete.
  if (timestamp !== undefined) metric.timestamp = timestamp;
  else if ('timestamp' in metric) delete metric.timestamp;
  if (interval !== undefined) metric.interval_ms = interval;
  else if ('interval_ms' in metric) delete metric.interval_ms;
}

/**
 * Vector's `MetricValue::subtract`: takes `other`'s value out of `metric`'s. Returns false, leaving it as it
 * was, for other types and for what would go backwards (a counter or a histogram smaller than before).
 */
export function subtractMetric(metric: Metric, other: Metric): boolean {
  const value = metric.value;
  const earlier = other.value;
  if (
    (value.type === 'counter' && earlier.type === 'counter' && value.value >= earlier.value) ||
    (value.type === 'gauge' && earlier.type === 'gauge')
  ) {
    metric.value = { type: value.type, value: value.value - earlier.value };
    return true;
  }
  if (value.type === 'set' && earlier.type === 'set') {
    metric.value = { type: 'set', values: value.values.filter((item) => !earlier.values.includes(item)) };
    return true;
  }
  if (value.type === 'distribution' && earlier.type === 'distribution' && value.statistic === earlier.statistic) {
    const seen = (sample: Sample) => earlier.samples.some((s) => s.value === sample.value && s.rate === sample.rate);
    metric.value = { ...value, samples: value.samples.filter((sample) => !seen(sample)) };
    return true;
  }
  if (
    value.type === 'aggregated_histogram' &&
    earlier.type === 'aggregated_histogram' &&
    value.count >= earlier.count &&
    sameLimits(value.buckets, earlier.buckets) &&
    value.buckets.every((bucket, i) => bucket.count >= earlier.buckets[i]!.count)
  ) {
    metric.value = {
      type: value.type,
      buckets: value.buckets.map((bucket, i) => ({ ...bucket, count: bucket.count - earlier.buckets[i]!.count })),
      count: value.count - earlier.count,
      sum: value.sum - earlier.sum,
    };
    return true;
  }
  return false;
}

/** The identity of a series: name, namespace and tags (Vector's `MetricSeries`), as a map key. */
export function seriesKey(metric: Metric): string {
  // The JSON of [namespace, name, [[tag, value]…] sorted by tag], written without the arrays: this runs per
  // metric, and tags mostly arrive sorted.
  const tags = metric.tags ?? {};
  const keys = Object.keys(tags);
  for (let i = 1; i < keys.length; i++)
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  let entries = '';
  for (const key of keys)
    entries += `${entries === '' ? '' : ','}[${JSON.stringify(key)},${JSON.stringify(tags[key]) ?? 'null'}]`;
  return `[${JSON.stringify(metric.namespace ?? null)},${JSON.stringify(metric.name)},[${entries}]]`;
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
