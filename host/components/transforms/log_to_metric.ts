// `log_to_metric`: makes metrics of log events, as Vector's transform: each entry of `metrics` reads its
// `field` and makes a counter (1, or the field's value with `increment_by_value`), a gauge, a histogram or
// summary sample, or a set member, named and tagged by templates, timestamped by the event's timestamp. A
// log gives all its metrics or none: the first that fails drops the event (counted as Vector counts it).
// With `all_metrics`, a log that is a metric in Vector's JSON shape (`name`, `kind`, `counter.value`, …)
// becomes that metric and `metrics` is ignored.

import { z } from 'zod';
import { ByteReader } from '../../../abi/codec.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import { BatchReader, BatchWriter, displayFloat, lossyText, type RecordCursor } from '../../../runtime/engine.js';
import { parseFieldPath, remapPath, templateOption, valuePath } from '../../config/template.js';
import type { TransformDefinition, TransformResult, TransformRunner } from '../component.js';
import {
  appendMetric,
  appendSeriesMetric,
  type EncodedSeries,
  encodeSeries,
  type Metric,
  type MetricTags,
  type MetricValue,
} from '../support/metric.js';
import { RemapLogs } from '../support/remap-program.js';
import { prepareTemplate, Template, type TemplatePlan } from '../support/template.js';

const METRIC_TYPES = ['counter', 'gauge', 'histogram', 'set', 'summary'] as const;

/** A path option: Vector's target path syntax (`%` for metadata). */
const fieldPath = templateOption().superRefine((text, context) => {
  try {
    parseFieldPath(text);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

/** A tag's value: a template, null for a bare tag, or a list of either (several values). */
const tagValue = z.union([templateOption().nullable(), z.array(templateOption().nullable())]);

const metricOptions = z.strictObject({
  type: z.enum(METRIC_TYPES),
  field: fieldPath,
  name: templateOption().optional(),
  namespace: templateOption().optional(),
  tags: z.record(z.string(), tagValue).optional(),
  // Counters only, as in Vector.
  increment_by_value: z.boolean().default(false),
  kind: z.enum(['incremental', 'absolute']).default('incremental'),
});

const options = z.strictObject({
  metrics: z.array(metricOptions).optional(),
  all_metrics: z.boolean().optional(),
});

type LogToMetricOptions = z.output<typeof options>;

interface MetricPlan {
  type: (typeof METRIC_TYPES)[number];
  /** `field` as configured, and as Vector displays its parsed path. */
  field: string;
  fieldPath: string;
  metadata: boolean;
  path: Array<string | number>;
  /** Templates, as indexes into the plan's `templates`. */
  name: number;
  namespace: number | undefined;
  tags: Array<{ key: number; values: Array<number | null> }>;
  incrementByValue: boolean;
  kind: 'incremental' | 'absolute';
}

interface LogToMetricPlan {
  /** Each distinct template once: one several entries use (`{{ method }}` as a tag of each) renders once. */
  templates: TemplatePlan[];
  metrics: MetricPlan[];
  allMetrics: boolean;
  timestampPath: Array<string | number> | undefined;
}

const logToMetric: TransformDefinition<LogToMetricOptions, LogToMetricPlan> = {
  kind: 'transform',
  type: 'log_to_metric',
  description: 'Convert log events to metric events.',
  options,
  concurrent: true,
  inputs: () => ['log'],
  outputs: () => [{ name: undefined, kinds: ['metric'] }],
  async prepare(config, env) {
    const timestampKey = env.globals.log_schema.timestamp_key;
    const templates: Array<Promise<TemplatePlan>> = [];
    const indexes = new Map<string, number>();
    /** The index of a template, prepared (named by the option of its first use) when first seen. */
    const templateIndex = (text: string, option: string): number => {
      let index = indexes.get(text);
      if (index === undefined) {
        index = templates.push(prepareTemplate(text, env, option)) - 1;
        indexes.set(text, index);
      }
      return index;
    };
    const metrics = (config.metrics ?? []).map((metric, i): MetricPlan => {
      const template = (text: string, name: string) => templateIndex(text, `metrics[${i}].${name}`);
      const { metadata, segments } = parseFieldPath(metric.field);
      const tags = Object.entries(metric.tags ?? {}).map(([key, value]) => ({
        key: template(key, `tags.${key}`),
        values: (Array.isArray(value) ? value : [value]).map((text) =>
          text === null ? null : template(text, `tags.${key}`),
        ),
      }));
      return {
        type: metric.type,
        field: metric.field,
        fieldPath: remapPath({ metadata, segments }),
        metadata,
        path: valuePath(segments),
        name: template(metric.name ?? metric.field, metric.name === undefined ? 'field' : 'name'),
        namespace: metric.namespace === undefined ? undefined : template(metric.namespace, 'namespace'),
        tags,
        incrementByValue: metric.increment_by_value,
        kind: metric.kind,
      };
    });
    return {
      templates: await Promise.all(templates),
      metrics,
      allMetrics: config.all_metrics ?? false,
      timestampPath: timestampKey === '' ? undefined : valuePath(parseFieldPath(timestampKey).segments),
    };
  },
  create: (plan) => createLogToMetric(plan),
};

export default logToMetric;

type Errors = NonNullable<TransformResult['errors']>;
type Discarded = NonNullable<TransformResult['discarded']>;

/** Why an event gave no metric: Vector's internal event for it (`component_errors_total` and the discard). */
class Failure {
  constructor(
    readonly errorType: string,
    readonly message: string,
    readonly tags: Record<string, string>,
    /** The discard reason; the message when not given. */
    readonly reason = message,
  ) {}
}

const missingField = (field: string) =>
  new Failure('condition_failed', 'Field does not exist.', { error_code: 'field_not_found', field });

/** Counts failures by their kind, tags and message, for one batch. */
class Tally {
  private readonly failures = new Map<string, { failure: Failure; count: number }>();

  add(failure: Failure): void {
    const key = JSON.stringify([failure.errorType, failure.message, failure.tags, failure.reason]);
    const entry = this.failures.get(key);
    if (entry) entry.count++;
    else this.failures.set(key, { failure, count: 1 });
  }

  errors(): Errors {
    return [...this.failures.values()].map(({ failure, count }) => ({
      count,
      errorType: failure.errorType,
      stage: 'processing',
      message: failure.message,
      tags: failure.tags,
    }));
  }

  discarded(): Discarded {
    const byReason = new Map<string, number>();
    for (const { failure, count } of this.failures.values())
      byReason.set(failure.reason, (byReason.get(failure.reason) ?? 0) + count);
    return [...byReason].map(([reason, count]) => ({ count, intentional: false, reason }));
  }
}

/** Per record, what one template rendered (undefined where it failed). */
type Rendered = Array<string | undefined>;

/** A metric entry as the runner uses it: its plan, the kind of its metrics, the templates its series is made
 * of (name, namespace, tag names and values), as indexes into the batch's rendered texts, and its series. */
interface Entry {
  plan: MetricPlan;
  kind: Metric['kind'];
  columns: number[];
  memo: SeriesMemo;
  /** The metric it made of the current event. */
  series?: EncodedSeries;
  value?: MetricValue;
}

export async function createLogToMetric(plan: LogToMetricPlan): Promise<TransformRunner> {
  const logs = new RemapLogs();
  const templates = await Promise.all(plan.templates.map((template) => Template.create(template, logs)));
  const entries = plan.metrics.map(
    (metric): Entry => ({
      plan: metric,
      // As Vector: gauges absolute, counters as configured, the others incremental.
      kind: metric.type === 'gauge' ? 'absolute' : metric.type === 'counter' ? metric.kind : 'incremental',
      columns: [
        metric.name,
        ...(metric.namespace === undefined ? [] : [metric.namespace]),
        ...metric.tags.flatMap(({ key, values }) => [key, ...values.filter((value) => value !== null)]),
      ],
      memo: new SeriesMemo(),
    }),
  );

  return {
    process(batch) {
      const reader = new BatchReader(batch.bytes);
      const out = new BatchWriter(reader.flags);
      const tally = new Tally();
      const warnings: NonNullable<TransformResult['warnings']> = [];
      const bytes = batch.bytes;
      // Per template, its text for each record: rendered with the record's other fields (one walk over them),
      // or for the whole batch by the program once a record needs it.
      const texts: Rendered[] = templates.map(() => new Array<string | undefined>(batch.count));
      const programmed: Rendered[] = [];
      const render = (template: number, record: RecordCursor) => {
        if (programmed[template]) return programmed[template][record.index];
        const text = templates[template]!.plainText(reader, record);
        if (text !== undefined) return text;
        programmed[template] = templates[template]!.renderByProgram(bytes).values;
        return programmed[template][record.index];
      };
      for (const entry of entries) entry.memo.columns = entry.columns.map((column) => texts[column]!);
      for (const record = reader.cursor(); record.next(); ) {
        const timestamp = eventTimestamp(reader, bytes, record.eventAt, plan.timestampPath);
        if (plan.allMetrics) {
          const metric = metricOfLog(new ByteReader(bytes, record.eventAt).value(), timestamp);
          if (metric instanceof Failure) tally.add(metric);
          else appendMetric(out, record.metadata(), metric);
          continue;
        }
        for (let template = 0; template < templates.length; template++)
          texts[template]![record.index] = render(template, record);
        let failure: Failure | undefined;
        for (let i = 0; i < entries.length && failure === undefined; i++) {
          const entry = entries[i]!;
          const metric = entry.plan;
          const value = reader.readPath(bytes, metric.path, metric.metadata ? record.metadataAt : record.eventAt);
          failure = metricOfField(entry, value, record.index, texts, warnings);
        }
        if (failure) tally.add(failure);
        else if (entries.length > 0) {
          const metadata = record.metadata();
          for (const { series, value } of entries) appendSeriesMetric(out, metadata, series!, value!, timestamp);
        }
      }
      return {
        outputs: [{ output: undefined, batch: { bytes: out.finish(), count: out.count } }],
        errors: tally.errors(),
        discarded: tally.discarded(),
        warnings,
        logs: logs.take(),
      };
    },
  };
}

/** What an entry's name, namespace and tags came to for one combination of their texts: its series encoded,
 * or why the event has none, and the warnings on the way (tags left out). */
interface SeriesOutcome {
  series: EncodedSeries | Failure;
  warnings: string[];
}

/**
 * An entry's series outcomes by the texts of its templates (a tree of maps, a level per template): events fall
 * in few series, and working out and encoding a series' tags once instead of once per event was most of making
 * a metric. Kept from batch to batch, up to MEMO_SERIES outcomes (then started again).
 */
class SeriesMemo {
  private root = new Map<string | undefined, unknown>();
  private size = 0;
  /** The texts of the entry's templates in the current batch. */
  columns: readonly Rendered[] = [];

  get(index: number): SeriesOutcome | undefined {
    let node: unknown = this.root;
    for (const column of this.columns) {
      node = (node as Map<string | undefined, unknown>).get(column[index]);
      if (node === undefined) return undefined;
    }
    return node as SeriesOutcome;
  }

  set(index: number, outcome: SeriesOutcome): SeriesOutcome {
    if (++this.size > MEMO_SERIES) {
      this.root = new Map();
      this.size = 1;
    }
    let node = this.root;
    const last = this.columns.length - 1;
    for (let i = 0; i < last; i++) {
      const key = this.columns[i]![index];
      let next = node.get(key) as Map<string | undefined, unknown> | undefined;
      if (next === undefined) node.set(key, (next = new Map()));
      node = next;
    }
    node.set(this.columns[last]![index], outcome);
    return outcome;
  }
}

const MEMO_SERIES = 10_000;

const nowNanos = () => BigInt(Date.now()) * 1_000_000n;

/** The timestamp (`log_schema.timestamp_key`) of the event at `at` in `bytes` when it is a timestamp, else now
 * (as Vector). */
function eventTimestamp(
  reader: BatchReader,
  bytes: Uint8Array,
  at: number,
  path: Array<string | number> | undefined,
): bigint {
  const value = path && reader.readPath(bytes, path, at);
  return value instanceof Timestamp ? value.nanos : nowNanos();
}

/** Vector's `to_metric_with_config`: one entry's metric of one event (its series and value, left in the
 * entry), or why there is none. */
function metricOfField(
  entry: Entry,
  value: RemapValue | undefined,
  index: number,
  texts: readonly Rendered[],
  warnings: NonNullable<TransformResult['warnings']>,
): Failure | undefined {
  const { plan } = entry;
  if (value === undefined) return missingField(plan.fieldPath);
  if (value === null)
    return new Failure('condition_failed', 'Unable to convert null field.', {
      error_code: 'field_null',
      null_field: plan.fieldPath,
    });
  const outcome = entry.memo.get(index) ?? entry.memo.set(index, seriesOutcome(entry, texts, index));
  for (const message of outcome.warnings) warnings.push({ message, fields: { error_type: 'template_failed' } });
  if (outcome.series instanceof Failure) return outcome.series;
  let metricValue: MetricValue;
  switch (plan.type) {
    case 'counter': {
      if (!plan.incrementByValue) {
        metricValue = ONE;
        break;
      }
      const count = numberOf(value, plan.field);
      if (count instanceof Failure) return count;
      metricValue = { type: 'counter', value: count };
      break;
    }
    case 'gauge': {
      const gauge = numberOf(value, plan.fieldPath);
      if (gauge instanceof Failure) return gauge;
      metricValue = { type: 'gauge', value: gauge };
      break;
    }
    case 'histogram':
    case 'summary': {
      const sample = numberOf(value, plan.fieldPath);
      if (sample instanceof Failure) return sample;
      metricValue = { type: 'distribution', samples: [{ value: sample, rate: 1 }], statistic: plan.type };
      break;
    }
    case 'set':
      metricValue = { type: 'set', values: [lossyString(value)] };
      break;
  }
  entry.series = outcome.series;
  entry.value = metricValue;
  return undefined;
}

/** A counter's 1, for every event it counts (values are only read). */
const ONE: MetricValue = { type: 'counter', value: 1 };

/** The series of an entry's metric from the texts its templates rendered for record `index`. */
function seriesOutcome(entry: Entry, texts: readonly Rendered[], index: number): SeriesOutcome {
  const { plan } = entry;
  const name = texts[plan.name]![index];
  const namespace = plan.namespace === undefined ? undefined : texts[plan.namespace]![index];
  const warnings: string[] = [];
  if (name === undefined || (plan.namespace !== undefined && namespace === undefined))
    return { series: new Failure('template_failed', 'Failed to render template.', {}), warnings };
  const tags = renderTags(plan.tags, texts, index, warnings);
  if (tags instanceof Failure) return { series: tags, warnings };
  return { series: encodeSeries({ kind: entry.kind, name, namespace, tags }), warnings };
}

/** The field's value as a float (Vector parses its lossy string), or why it is none. */
function numberOf(value: RemapValue, field: string): number | Failure {
  // An integer's decimal text parses back to the integer rounded to a float, as Number rounds it.
  if (typeof value === 'bigint') return Number(value);
  const text = lossyString(value);
  return parseFloat(text) ?? parseFloatFailure(field, text);
}

function parseFloatFailure(field: string, text: string): Failure {
  const error = text === '' ? 'cannot parse float from empty string' : 'invalid float literal';
  return new Failure(
    'parser_failed',
    `Failed to parse field as float: ${error}.`,
    { error_code: 'failed_parsing_float', field },
    'Failed to parse field as float.',
  );
}

/** The tags of one event from the rendered keys and values; a key or value that failed to render leaves the
 * tag out (Vector warns); a key ending in `*` takes a JSON object value as several tags (pair expansion). */
function renderTags(
  tags: MetricPlan['tags'],
  texts: readonly Rendered[],
  index: number,
  warnings: string[],
): MetricTags | undefined | Failure {
  if (tags.length === 0) return undefined;
  const result: MetricTags = {};
  let any = false;
  for (const { key: keyTemplate, values } of tags) {
    const key = texts[keyTemplate]![index];
    if (key === undefined) {
      warnings.push('Failed to render template for a tag name.');
      continue;
    }
    for (const template of values) {
      if (template === null) {
        insertTag(result, key, null);
        any = true;
        continue;
      }
      const value = texts[template]![index];
      if (value === undefined) {
        warnings.push('Failed to render template for a tag value.');
        continue;
      }
      if (!key.endsWith('*')) {
        insertTag(result, key, value);
        any = true;
        continue;
      }
      const expanded = expandPairs(key.slice(0, -1), value);
      if (expanded instanceof Failure) return expanded;
      for (const [name, item] of expanded) insertTag(result, name, item);
      any ||= expanded.length > 0;
    }
  }
  return any ? result : undefined;
}

/** Adds a tag value, as Vector's tag value set: a key given again holds several values, a value given again
 * moves to the end (built in place: most tags have one value). */
function insertTag(tags: MetricTags, key: string, value: string | null): void {
  if (!Object.hasOwn(tags, key)) {
    tags[key] = value;
    return;
  }
  const held = tags[key]!;
  const values = Array.isArray(held) ? held : [held];
  const at = values.indexOf(value);
  if (at >= 0) values.splice(at, 1);
  values.push(value);
  tags[key] = values.length === 1 ? values[0]! : values;
}

/** Vector's `pair_expansion` for `prefix*`: each field of the JSON object `value` becomes a tag named
 * `prefix` + its name, slugified; null fields are left out. */
function expandPairs(prefix: string, value: string): Array<[string, string]> | Failure {
  let object: unknown;
  try {
    object = JSON.parse(value);
  } catch {
    object = undefined;
  }
  if (object === null || typeof object !== 'object' || Array.isArray(object)) {
    const message = `Failed to expand key: \`${prefix}*\`:\`${value}\``;
    return new Failure('parser_failed', message, {});
  }
  const pairs: Array<[string, string]> = [];
  for (const [name, item] of Object.entries(object)) {
    if (item === null) continue;
    const slug = `${prefix}${name}`.replace(/[^0-9A-Za-z_]/g, '_').toLowerCase();
    pairs.push([slug, typeof item === 'string' ? item : JSON.stringify(item)]);
  }
  return pairs;
}

/** VRL's `to_string_lossy`: text as it is, numbers as Rust prints them, other values as text or JSON. */
function lossyString(value: RemapValue): string {
  if (typeof value === 'string' || value instanceof Uint8Array) return lossyText(value);
  if (typeof value === 'number') return displayFloat(value).replace(/\.0$/, '');
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Timestamp) return value.toString();
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? Number(item) : item instanceof Uint8Array ? lossyText(item) : item,
  );
}

/** Rust's `f64::from_str`: decimal or exponent notation, `inf`, `infinity`, `nan`; undefined otherwise. */
function parseFloat(text: string): number | undefined {
  if (!/^[+-]?(?:inf|infinity|nan|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)$/i.test(text)) return undefined;
  const body = text.replace(/^[+-]/, '').toLowerCase();
  const sign = text.startsWith('-') ? -1 : 1;
  if (body === 'nan') return Number.NaN;
  if (body === 'inf' || body === 'infinity') return sign * Number.POSITIVE_INFINITY;
  return Number(text);
}

type Fields = { [key: string]: RemapValue };

const isObject = (value: RemapValue | undefined): value is Fields =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  !(value instanceof Uint8Array) &&
  !(value instanceof Timestamp);

const text = (value: RemapValue | undefined): string | undefined =>
  typeof value === 'string' || value instanceof Uint8Array ? lossyText(value) : undefined;

const parseFailure = (field: string, kind: 'FloatError' | 'IntError' | 'ArrayError') =>
  new Failure(
    'parser_failed',
    'Failed to parse field as float.',
    { error_code: `failed_parsing_${kind}`, field },
    'Failed to parse field as float.',
  );

/** Reads Vector's JSON shape of a metric value field by field, failing as Vector's `all_metrics` does. */
class ShapeReader {
  constructor(readonly fields: Fields) {}

  get(path: string): RemapValue | Failure {
    let value: RemapValue | undefined = this.fields;
    for (const part of path.split('.')) value = isObject(value) ? value[part] : undefined;
    return value === undefined ? missingField(path) : value;
  }

  float(value: RemapValue | undefined, path: string): number | Failure {
    if (value === undefined) return missingField(path);
    return typeof value === 'number' ? value : parseFailure(path, 'FloatError');
  }

  integer(value: RemapValue | undefined, path: string): number | Failure {
    if (value === undefined) return missingField(path);
    return typeof value === 'bigint' ? Number(value) : parseFailure(path, 'IntError');
  }

  array(path: string): Fields[] | Failure {
    const value = this.get(path);
    if (value instanceof Failure) return value;
    return Array.isArray(value) ? (value as Fields[]) : parseFailure(path, 'ArrayError');
  }
}

/** Thrown inside `valueOfShape` to stop at the first failure. */
class Stop {
  constructor(readonly failure: Failure) {}
}

const ok = <T>(value: T | Failure): T => {
  if (value instanceof Failure) throw new Stop(value);
  return value;
};

/** The value of a metric in Vector's JSON shape, by the first value type among its fields (sorted by name). */
function valueOfShape(shape: ShapeReader): MetricValue {
  const type = Object.keys(shape.fields)
    .sort()
    .find((key) =>
      ['aggregated_histogram', 'aggregated_summary', 'counter', 'distribution', 'gauge', 'set'].includes(key),
    );
  const field = (item: Fields, key: string) => (isObject(item) ? item[key] : undefined);
  switch (type) {
    case 'counter':
    case 'gauge':
      return { type, value: ok(shape.float(ok(shape.get(`${type}.value`)), `${type}.value`)) };
    case 'set':
      return {
        type,
        values: ok(shape.array('set.values')).map((item) => ok(text(item) ?? parseFailure('set.values', 'ArrayError'))),
      };
    case 'distribution': {
      const samples = ok(shape.array('distribution.samples')).map((sample) => ({
        value: ok(shape.float(field(sample, 'value'), 'value')),
        rate: ok(shape.integer(field(sample, 'rate'), 'rate')),
      }));
      const statistic = text(ok(shape.get('distribution.statistic')));
      if (statistic === undefined) throw new Stop(missingField('distribution.statistic'));
      if (statistic !== 'histogram' && statistic !== 'summary') throw new Stop(invalidValue('distribution.statistic'));
      return { type, samples, statistic };
    }
    case 'aggregated_histogram': {
      const path = 'aggregated_histogram.buckets';
      const buckets = ok(shape.array(path)).map((bucket) => ({
        upper_limit: ok(shape.float(field(bucket, 'upper_limit'), `${path}.upper_limit`)),
        count: ok(shape.integer(field(bucket, 'count'), `${path}.count`)),
      }));
      return { type, buckets, ...countAndSum(shape, type) };
    }
    case 'aggregated_summary': {
      const path = 'aggregated_summary.quantiles';
      const quantiles = ok(shape.array(path)).map((quantile) => ({
        quantile: ok(shape.float(field(quantile, 'quantile'), `${path}.quantile`)),
        value: ok(shape.float(field(quantile, 'value'), `${path}.value`)),
      }));
      return { type, quantiles, ...countAndSum(shape, type) };
    }
    default:
      throw new Stop(
        new Failure(
          'parser_failed',
          'Missing required metric details. Required one of gauge, distribution, aggregated_histogram, aggregated_summary, counter',
          { error_code: 'missing_metric_details' },
        ),
      );
  }
}

function countAndSum(shape: ShapeReader, type: string): { count: number; sum: number } {
  return {
    count: ok(shape.integer(ok(shape.get(`${type}.count`)), `${type}.count`)),
    sum: ok(shape.float(ok(shape.get(`${type}.sum`)), `${type}.sum`)),
  };
}

const invalidValue = (field: string) =>
  new Failure(
    'parser_failed',
    'Field contained unsupported value.',
    { error_code: 'invalid_field_value', field },
    'Field contained unsupported value.',
  );

/** Vector's `to_metrics` (`all_metrics`): the metric a log in Vector's metric shape is, or why it is none. */
function metricOfLog(event: RemapValue, timestamp: bigint): Metric | Failure {
  if (!isObject(event)) return missingField('name');
  const shape = new ShapeReader(event);
  const name = text(event.name);
  if (name === undefined) return missingField('name');
  const tags: MetricTags = {};
  if (isObject(event.tags)) for (const [key, value] of Object.entries(event.tags)) tags[key] = text(value) ?? null;
  const kind = text(event.kind);
  if (kind === undefined) return missingField('kind');
  if (kind !== 'absolute' && kind !== 'incremental') return invalidValue('kind');
  let value: MetricValue;
  try {
    value = valueOfShape(shape);
  } catch (error) {
    if (error instanceof Stop) return error.failure;
    throw error;
  }
  const metric: Metric = { name, kind, value, timestamp };
  if (Object.keys(tags).length > 0) metric.tags = tags;
  const namespace = text(event.namespace);
  if (namespace !== undefined) metric.namespace = namespace;
  return metric;
}
