// Prometheus' data model as Vector maps metrics onto it (src/sinks/prometheus/collector.rs): each absolute
// metric becomes samples of a family named `<namespace>_<name>` — counters and gauges one sample, sets their
// size, distributions a histogram over `buckets` (or a summary at `quantiles`), aggregated histograms and
// summaries their buckets or quantiles with `_sum` and `_count`. `ExpositionWriter` writes them in the text
// exposition format (the prometheus_exporter sink), `timeSeries` as a remote write request's series (the
// prometheus_remote_write sink, `writeRequestType` its protobuf message).

import { fileURLToPath } from 'node:url';
import type * as Protobuf from 'protobufjs';
import { protobufjs } from './protobufjs.js';
import { z } from 'zod';
import { displayFloat } from '../../../runtime/engine.js';
import { PROMETHEUS_REMOTE_PROTO } from '../../package-files.js';
import { distributionStatistic, type Metric, type MetricTags, type MetricValue, tagValue } from './metric.js';

/** The Prometheus sinks' `buckets` (histogram upper bounds) and `quantiles`, with Vector's defaults. */
export const bucketsSchema = z
  .array(z.number())
  .default([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0]);
const QUANTILE_RANGE = 'Quantiles must be in range [0.0,1.0]';
export const quantilesSchema = z
  .array(z.number().min(0, QUANTILE_RANGE).max(1, QUANTILE_RANGE))
  .default([0.5, 0.75, 0.9, 0.95, 0.99]);

/** How metrics become samples: the sinks' `default_namespace`, `buckets` and `quantiles`. */
export interface SampleOptions {
  defaultNamespace?: string;
  buckets: readonly number[];
  quantiles: readonly number[];
}

type FamilyType = 'counter' | 'gauge' | 'histogram' | 'summary';

/** Rust's `Display` of an f64, as Vector writes values and bounds: `1`, `0.5`, `inf`, no exponent. */
function rustFloat(value: number): string {
  const text = displayFloat(value);
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

/** The family name: `namespace_name`, the default namespace standing in for a missing one. */
function familyName(metric: Metric, defaultNamespace: string | undefined): string {
  const namespace = metric.namespace ?? defaultNamespace;
  return namespace === undefined || namespace === '' ? metric.name : `${namespace}_${metric.name}`;
}

function familyType(value: MetricValue): FamilyType {
  switch (value.type) {
    case 'counter':
      return 'counter';
    case 'gauge':
    case 'set':
      return 'gauge';
    case 'distribution':
      return value.statistic === 'histogram' ? 'histogram' : 'summary';
    case 'aggregated_histogram':
      return 'histogram';
    case 'aggregated_summary':
    case 'sketch':
      return 'summary';
  }
}

/** Samples into `buckets` (Vector's `samples_to_buckets`): each sample's rate counts in the first bucket
 * whose bound holds it (none past the last), and in the count and sum. */
export function samplesToBuckets(
  samples: ReadonlyArray<{ value: number; rate: number }>,
  buckets: readonly number[],
): { buckets: Array<{ upper_limit: number; count: number }>; count: number; sum: number } {
  const counts = buckets.map(() => 0);
  let count = 0;
  let sum = 0;
  for (const sample of samples) {
    const index = buckets.findIndex((bound) => bound >= sample.value);
    if (index >= 0) counts[index]! += sample.rate;
    sum += sample.value * sample.rate;
    count += sample.rate;
  }
  return { buckets: buckets.map((upper_limit, i) => ({ upper_limit, count: counts[i]! })), count, sum };
}

/** One sample of a family: the family name with `suffix`, and one extra label (`le`, `quantile`). */
type Emit = (suffix: string, value: number, extra?: [string, string]) => void;

/** The samples of an absolute metric, in Vector's order. Sketches (whose quantiles svc cannot compute) and
 * incremental metrics give none. */
function emitSamples(metric: Metric, options: SampleOptions, emit: Emit): void {
  const value = metric.value;
  switch (value.type) {
    case 'counter':
    case 'gauge':
      return emit('', value.value);
    case 'set':
      return emit('', value.values.length);
    case 'distribution':
      if (value.statistic === 'histogram') {
        const histogram = samplesToBuckets(value.samples, options.buckets);
        return emitHistogram(histogram.buckets, histogram.count, histogram.sum, emit);
      } else {
        const statistic = distributionStatistic(value.samples, options.quantiles);
        if (statistic === undefined) {
          emit('_sum', 0);
          return emit('_count', 0);
        }
        for (const [q, v] of statistic.quantiles) emit('', v!, ['quantile', rustFloat(q!)]);
        emit('_sum', statistic.sum);
        emit('_count', statistic.count);
        emit('_min', statistic.min);
        emit('_max', statistic.max);
        return emit('_avg', statistic.avg);
      }
    case 'aggregated_histogram':
      return emitHistogram(value.buckets, value.count, value.sum, emit);
    case 'aggregated_summary':
      for (const q of value.quantiles) emit('', q.value, ['quantile', rustFloat(q.quantile)]);
      emit('_sum', value.sum);
      return emit('_count', value.count);
    case 'sketch':
      return;
  }
}

/** Cumulative `_bucket`s (an infinite bound left out: `+Inf` is the count), `_sum`, `_count`. */
function emitHistogram(
  buckets: ReadonlyArray<{ upper_limit: number; count: number }>,
  count: number,
  sum: number,
  emit: Emit,
): void {
  let cumulative = 0;
  for (const bucket of buckets) {
    if (!Number.isFinite(bucket.upper_limit)) continue;
    cumulative += bucket.count;
    emit('_bucket', cumulative, ['le', rustFloat(bucket.upper_limit)]);
  }
  emit('_bucket', count, ['le', '+Inf']);
  emit('_sum', sum);
  emit('_count', count);
}

/** A metric's tags with one value each (Vector's `iter_single`: the last value; bare tags left out). */
function singleTags(tags: MetricTags | undefined): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const key of Object.keys(tags ?? {})) {
    const value = tagValue(tags, key);
    if (typeof value === 'string') pairs.push([key, value]);
  }
  return pairs;
}

const timestampMillis = (metric: Metric): number | undefined =>
  metric.timestamp === undefined ? undefined : Number(metric.timestamp / 1_000_000n);

/** `key="value"`, escaping only backslashes and double quotes as Vector does. */
const label = (key: string, value: string) => `${key}="${value.replace(/[\\"]/g, '\\$&')}"`;

/** One metric in the text exposition format: its family, the family's HELP and TYPE lines, its sample lines. */
export interface ExposedMetric {
  family: string;
  header: string;
  samples: string;
}

/** An absolute metric's lines as Vector's exporter writes them (labels sorted, `le`/`quantile` among them),
 * or undefined for what it leaves out (incremental metrics, sketches). */
export function exposeMetric(metric: Metric, options: SampleOptions): ExposedMetric | undefined {
  if (metric.kind !== 'absolute' || metric.value.type === 'sketch') return undefined;
  const family = familyName(metric, options.defaultNamespace);
  const header = `# HELP ${family} ${metric.name}\n# TYPE ${family} ${familyType(metric.value)}\n`;
  const tags = singleTags(metric.tags)
    .map(([key, value]) => label(key, value))
    .sort();
  const timestamp = timestampMillis(metric);
  const end = timestamp === undefined ? '\n' : ` ${timestamp}\n`;
  let samples = '';
  emitSamples(metric, options, (suffix, value, extra) => {
    const parts = extra === undefined ? tags : [...tags, label(extra[0], extra[1])].sort();
    const labels = parts.length === 0 ? '' : `{${parts.join(',')}}`;
    samples += `${family}${suffix}${labels} ${rustFloat(value)}${end}`;
  });
  return { family, header, samples };
}

/** Metrics in the text exposition format (version 0.0.4) as Vector's exporter writes it: families sorted by
 * name, each with its HELP and TYPE lines (the first metric's), then its samples in the order they came. */
export class ExpositionWriter {
  private readonly families = new Map<string, string[]>();

  add(exposed: ExposedMetric): void {
    const lines = this.families.get(exposed.family);
    if (lines === undefined) this.families.set(exposed.family, [exposed.header, exposed.samples]);
    else lines.push(exposed.samples);
  }

  text(): string {
    const names = [...this.families.keys()].sort();
    return names.map((name) => this.families.get(name)!.join('')).join('');
  }
}

/** Prometheus' `MetricMetadata.MetricType` numbers (types.proto). */
const METADATA_TYPES: Record<FamilyType, number> = { counter: 1, gauge: 2, histogram: 3, summary: 5 };

/** A remote write request's content (prometheus' prompb.WriteRequest, fields named as protobufjs names them). */
export interface WriteRequestData {
  timeseries: Array<{
    labels: Array<{ name: string; value: string }>;
    samples: Array<{ value: number; timestamp: number }>;
  }>;
  metadata: Array<{ type: number; metricFamilyName: string; help: string; unit: string }>;
}

/**
 * Absolute metrics as one remote write request (Vector's `TimeSeries` collector): a series per sorted label
 * set (`__name__` the family name with its suffix), its samples in order, stamped with the metric's time or
 * else `now`; metadata once per metric name.
 */
export function timeSeries(metrics: Iterable<Metric>, options: SampleOptions, now: number): WriteRequestData {
  const series = new Map<string, WriteRequestData['timeseries'][number]>();
  const metadata = new Map<string, WriteRequestData['metadata'][number]>();
  for (const metric of metrics) {
    if (metric.kind !== 'absolute' || metric.value.type === 'sketch') continue;
    const name = familyName(metric, options.defaultNamespace);
    if (!metadata.has(metric.name)) {
      const type = METADATA_TYPES[familyType(metric.value)];
      metadata.set(metric.name, { type, metricFamilyName: name, help: metric.name, unit: '' });
    }
    const tags = singleTags(metric.tags);
    const timestamp = timestampMillis(metric) ?? now;
    emitSamples(metric, options, (suffix, value, extra) => {
      const labels = new Map(tags);
      labels.set('__name__', name + suffix);
      if (extra !== undefined) labels.set(extra[0], extra[1]);
      const sorted = [...labels].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
      const key = JSON.stringify(sorted);
      let entry = series.get(key);
      if (entry === undefined) {
        entry = { labels: sorted.map(([name, value]) => ({ name, value })), samples: [] };
        series.set(key, entry);
      }
      entry.samples.push({ value, timestamp });
    });
  }
  return { timeseries: [...series.values()], metadata: [...metadata.values()] };
}

let writeRequest: Protobuf.Type | undefined;

/** Prometheus' `WriteRequest` message (support/prometheus-remote.proto), loaded on first use. */
export function writeRequestType(): Protobuf.Type {
  if (writeRequest === undefined) {
    const protobuf = protobufjs();
    const root = protobuf.loadSync(fileURLToPath(PROMETHEUS_REMOTE_PROTO), new protobuf.Root());
    writeRequest = root.lookupType('prometheus.WriteRequest');
  }
  return writeRequest;
}

// ---- the text exposition format, read (Vector's lib/prometheus-parser and sources/prometheus/parser.rs) ----

/** Why a text exposition does not parse, with Vector's message. */
export class ExpositionError extends Error {}

/** A failure inside a line; `ExpositionError` adds the line. */
class LineError extends Error {}

type FamilyKind = FamilyType | 'untyped';

interface Line {
  name: string;
  labels: Map<string, string>;
  value: number;
  timestamp: number | undefined;
}

const NAME = /^[\p{L}_][\p{L}\p{N}_:]*/u;
const FLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)/i;
const U64_MAX = 2 ** 64;

/** A cursor over one line, reading as Vector's nom parsers do (spaces and tabs skipped before each token). */
class LineReader {
  constructor(public rest: string) {}

  skipSpace(): void {
    this.rest = this.rest.replace(/^[ \t]+/, '');
  }

  /** Skips spaces, then takes `char` when it is next. */
  take(char: string): boolean {
    this.skipSpace();
    if (!this.rest.startsWith(char)) return false;
    this.rest = this.rest.slice(char.length);
    return true;
  }

  expect(char: string): void {
    if (!this.take(char)) throw new LineError(`expected token "${char}", parsing: \`${this.rest}\``);
  }

  name(): string {
    this.skipSpace();
    const found = NAME.exec(this.rest)?.[0];
    if (found === undefined) throw new LineError(`name must start with [a-zA-Z_], parsing: \`${this.rest}\``);
    this.rest = this.rest.slice(found.length);
    return found;
  }

  value(): number {
    this.skipSpace();
    for (const [word, value] of [
      ['+Inf', Infinity],
      ['-Inf', -Infinity],
      ['Nan', NaN],
      ['NaN', NaN],
    ] as const) {
      if (this.rest.startsWith(word)) {
        this.rest = this.rest.slice(word.length);
        return value;
      }
    }
    const found = FLOAT.exec(this.rest)?.[0];
    if (found === undefined) throw new LineError(`parse float value error, parsing: \`${this.rest}\``);
    this.rest = this.rest.slice(found.length);
    const word = found.replace(/^[+-]/, '').toLowerCase();
    if (word.startsWith('inf')) return found.startsWith('-') ? -Infinity : Infinity;
    return word === 'nan' ? NaN : Number(found);
  }

  /** A quoted label value, with `\n`, `\"` and `\\` escapes. */
  quoted(): string {
    this.skipSpace();
    if (!this.rest.startsWith('"')) throw new LineError(`expected token "\\"", parsing: \`${this.rest}\``);
    let text = '';
    let at = 1;
    for (;;) {
      const char = this.rest[at];
      if (char === undefined) throw new LineError(`expected token "\\"", parsing: \`\``);
      if (char === '"') break;
      if (char === '\\') {
        const escaped = { n: '\n', '"': '"', '\\': '\\' }[this.rest[at + 1] ?? ''];
        if (escaped === undefined) throw new LineError(`expected token "\\"", parsing: \`${this.rest.slice(at)}\``);
        text += escaped;
        at += 2;
      } else {
        text += char;
        at++;
      }
    }
    this.rest = this.rest.slice(at + 1);
    return text;
  }

  labels(): Map<string, string> {
    const labels = new Map<string, string>();
    if (!this.take('{')) return labels;
    for (;;) {
      const before = this.rest;
      try {
        const name = this.name();
        this.expect('=');
        labels.set(name, this.quoted());
      } catch (error) {
        this.rest = before;
        if (this.take('}')) return labels;
        throw error;
      }
      if (this.take(',')) continue;
      if (this.take('}')) return labels;
      throw new LineError(`expected token ",", parsing: \`${this.rest}\``);
    }
  }

  timestamp(): number | undefined {
    this.skipSpace();
    const found = /^-?\d+/.exec(this.rest)?.[0];
    if (found === undefined) return undefined;
    const value = Number(found);
    return Number.isSafeInteger(value) ? value : undefined;
  }
}

function parseMetricLine(text: string): Line {
  const reader = new LineReader(text);
  const name = reader.name();
  const labels = reader.labels();
  const value = reader.value();
  return { name, labels, value, timestamp: reader.timestamp() };
}

function parseTypeLine(text: string): { name: string; kind: FamilyKind } {
  const reader = new LineReader(text);
  reader.expect('#');
  reader.skipSpace();
  if (!reader.rest.startsWith('TYPE')) throw new LineError(`expected token "TYPE", parsing: \`${reader.rest}\``);
  reader.rest = reader.rest.slice(4);
  if (!/^[ \t]/.test(reader.rest)) throw new LineError(`expected blank space or tab, parsing: \`${reader.rest}\``);
  const name = reader.name();
  if (!/^[ \t]/.test(reader.rest)) throw new LineError(`expected blank space or tab, parsing: \`${reader.rest}\``);
  reader.skipSpace();
  const kind = (['counter', 'gauge', 'summary', 'histogram', 'untyped'] as const).find((k) =>
    reader.rest.startsWith(k),
  );
  if (kind === undefined) throw new LineError(`invalid metric type, parsing: \`${reader.rest}\``);
  return { name, kind };
}

/** A line: a sample, a TYPE header, or nothing (blank, HELP, other comments). */
function parseLine(line: string): Line | { name: string; kind: FamilyKind } | undefined {
  const text = line.trim();
  if (text === '') return undefined;
  let metricError: unknown;
  try {
    return parseMetricLine(text);
  } catch (error) {
    metricError = error;
  }
  try {
    return parseTypeLine(text);
  } catch (headerError) {
    if (!text.startsWith('#')) throw metricError;
    if (/^#[ \t]*TYPE/.test(text)) throw headerError;
    return undefined;
  }
}

interface Group {
  name: string;
  kind: FamilyKind;
  /** By labels and timestamp, in order of first appearance. */
  series: Map<string, Series>;
}

interface Series {
  labels: Map<string, string>;
  timestamp: number | undefined;
  value: number;
  buckets: Array<{ bound: number; count: number }>;
  quantiles: Array<{ quantile: number; value: number }>;
  sum: number;
  count: number;
}

function toCount(value: number): number {
  if (value >= 0 && value <= U64_MAX) return Math.trunc(value);
  throw new ExpositionError(`expected value in range [0, 18446744073709551615], found: ${rustFloat(value)}`);
}

/** The series of a group a line belongs to (labels without `le`/`quantile`, and timestamp). */
function seriesOf(group: Group, line: Line): Series {
  const labels = [...line.labels].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = JSON.stringify([line.timestamp ?? null, labels]);
  let series = group.series.get(key);
  if (series === undefined) {
    series = {
      labels: new Map(labels),
      timestamp: line.timestamp,
      value: 0,
      buckets: [],
      quantiles: [],
      sum: 0,
      count: 0,
    };
    group.series.set(key, series);
  }
  return series;
}

/** The number in an `le` or `quantile` label (Vector's "error parsing label value" otherwise). */
function labelNumber(line: Line, label: 'le' | 'quantile'): number {
  const text = line.labels.get(label);
  if (text === undefined)
    throw new ExpositionError(`expected "${label}" tag for ${label === 'le' ? 'histogram' : 'summary'} metric`);
  line.labels.delete(label);
  try {
    return new LineReader(text).value();
  } catch (error) {
    throw new ExpositionError(`error parsing label value: ${(error as Error).message}`);
  }
}

/** Adds a sample line to the group; false when it is not the group's. */
function addToGroup(group: Group, line: Line): boolean {
  if (!line.name.startsWith(group.name)) return false;
  const suffix = line.name.slice(group.name.length);
  switch (group.kind) {
    case 'counter':
    case 'gauge':
    case 'untyped':
      if (suffix !== '') return false;
      seriesOf(group, line).value = line.value;
      return true;
    case 'histogram':
      if (suffix === '_bucket') {
        const bound = labelNumber(line, 'le');
        seriesOf(group, line).buckets.push({ bound, count: toCount(line.value) });
      } else if (suffix === '_sum') seriesOf(group, line).sum = line.value;
      else if (suffix === '_count') seriesOf(group, line).count = toCount(line.value);
      else return false;
      return true;
    case 'summary':
      if (suffix === '') {
        const quantile = labelNumber(line, 'quantile');
        seriesOf(group, line).quantiles.push({ quantile, value: line.value });
      } else if (suffix === '_sum') seriesOf(group, line).sum = line.value;
      else if (suffix === '_count') seriesOf(group, line).count = toCount(line.value);
      else return false;
      return true;
  }
}

/** The metric of one series of a group, as Vector's `reparse_groups` makes it: absolute, untyped as gauge,
 * histogram buckets made non-cumulative (an `+Inf` bucket left out), stamped `now` without a timestamp. */
function seriesMetric(group: Group, series: Series, now: bigint): Metric {
  const metric: Metric = {
    name: group.name,
    kind: 'absolute',
    timestamp: series.timestamp === undefined ? now : BigInt(series.timestamp) * 1_000_000n,
    value: { type: 'gauge', value: series.value },
  };
  if (series.labels.size > 0) metric.tags = Object.fromEntries(series.labels);
  switch (group.kind) {
    case 'counter':
      metric.value = { type: 'counter', value: series.value };
      break;
    case 'histogram': {
      const buckets = [...series.buckets].sort((a, b) => a.bound - b.bound || a.count - b.count);
      for (let i = buckets.length - 1; i > 0; i--)
        buckets[i] = { ...buckets[i]!, count: Math.max(0, buckets[i]!.count - buckets[i - 1]!.count) };
      if (buckets.at(-1)?.bound === Infinity) buckets.pop();
      metric.value = {
        type: 'aggregated_histogram',
        buckets: buckets.map(({ bound, count }) => ({ upper_limit: bound, count })),
        count: series.count,
        sum: series.sum,
      };
      break;
    }
    case 'summary':
      metric.value = { type: 'aggregated_summary', quantiles: series.quantiles, count: series.count, sum: series.sum };
      break;
    default:
      break;
  }
  return metric;
}

/** The metrics of a text exposition, in order; `now` (ns) stamps samples without a timestamp. Throws an
 * `ExpositionError` with Vector's message on the first line that does not parse. */
export function parseExposition(text: string, now: bigint): Metric[] {
  const groups: Group[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line: ReturnType<typeof parseLine>;
    try {
      line = parseLine(raw);
    } catch (error) {
      throw new ExpositionError(`${(error as Error).message}, line: \`${raw}\``);
    }
    if (line === undefined) continue;
    if (!('labels' in line)) {
      groups.push({ name: line.name, kind: line.kind, series: new Map() });
      continue;
    }
    const last = groups.at(-1);
    if (last === undefined || !addToGroup(last, line)) {
      const group: Group = { name: line.name, kind: 'untyped', series: new Map() };
      addToGroup(group, line);
      groups.push(group);
    }
  }
  return groupMetrics(groups, now, false);
}

/** The metrics of groups, in order; `skipNaN`: series with a NaN value, sum, bound or quantile left out. */
function groupMetrics(groups: Iterable<Group>, now: bigint, skipNaN: boolean): Metric[] {
  const metrics: Metric[] = [];
  for (const group of groups) {
    for (const series of group.series.values()) {
      if (skipNaN && hasNaN(group.kind, series)) continue;
      metrics.push(seriesMetric(group, series, now));
    }
  }
  return metrics;
}

function hasNaN(kind: FamilyKind, series: Series): boolean {
  switch (kind) {
    case 'histogram':
      return Number.isNaN(series.sum) || series.buckets.some((bucket) => Number.isNaN(bucket.bound));
    case 'summary':
      return (
        Number.isNaN(series.sum) || series.quantiles.some((q) => Number.isNaN(q.quantile) || Number.isNaN(q.value))
      );
    default:
      return Number.isNaN(series.value);
  }
}

/** Prometheus' metadata types as families (a gauge histogram as a histogram, the others untyped). */
const METADATA_KINDS: Record<number, FamilyKind> = {
  1: 'counter',
  2: 'gauge',
  3: 'histogram',
  4: 'histogram',
  5: 'summary',
};

/**
 * The metrics of a remote write request, as Vector's `parse_request`: families typed by the request's
 * metadata (`conflicts`: what a family given two types does: `reject` throws), each series' samples added to
 * its family (`x_bucket`, `x_sum`, `x_count` to family `x`), and series of no family untyped: gauges.
 */
export function writeRequestMetrics(
  request: WriteRequestData,
  conflicts: 'ignore' | 'reject',
  skipNaN: boolean,
  now: bigint,
): Metric[] {
  const groups = new Map<string, Group>();
  for (const { type, metricFamilyName: name } of request.metadata) {
    const kind = METADATA_KINDS[type] ?? 'untyped';
    const group = groups.get(name);
    if (group === undefined) groups.set(name, { name, kind, series: new Map() });
    else if (group.kind !== 'untyped' && group.kind !== kind && conflicts === 'reject')
      throw new ExpositionError(`multiple metric kinds given for metric name \`${name}\``);
  }
  for (const series of request.timeseries) {
    const labels = new Map(series.labels.map(({ name, value }) => [name, value]));
    const name = labels.get('__name__');
    if (name === undefined) throw new ExpositionError('request is missing metric name label');
    labels.delete('__name__');
    const base = [
      name,
      ...['_bucket', '_sum', '_count'].filter((s) => name.endsWith(s)).map((s) => name.slice(0, -s.length)),
    ];
    for (const sample of series.samples) {
      const line = { name, labels: new Map(labels), value: sample.value, timestamp: sample.timestamp };
      let group = groups.get(base.find((candidate) => groups.has(candidate)) ?? name);
      if (group === undefined) groups.set(name, (group = { name, kind: 'untyped', series: new Map() }));
      if (!addToGroup(group, line)) {
        const untyped: Group = { name, kind: 'untyped', series: new Map() };
        addToGroup(untyped, line);
        groups.set(name, untyped);
      }
    }
  }
  return groupMetrics(groups.values(), now, skipNaN);
}
