// `metric_to_log`: makes a log event of each metric, in Vector's shape: the metric's JSON fields (`name`,
// `namespace`, `tags`, `timestamp`, `interval_ms`, `kind`, and the value under its type, e.g.
// `counter.value`). In the legacy namespace the timestamp moves to `log_schema.timestamp_key` (now when the
// metric has none) and the `host_tag` tag to `log_schema.host_key`; in Vector's namespace the timestamp
// stays an RFC 3339 string and the metadata gets `vector: {}`. `metric_tag_values: single` keeps each tag's
// last value; `full` (and `auto`) keeps every value, several as an array.

import { z } from 'zod';
import { ByteReader, encode } from '../../../abi/codec.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import { BatchReader, BatchWriter } from '../../../runtime/engine.js';
import { timezone } from '../../config/global.js';
import { parseFieldPath, valuePath } from '../../config/template.js';
import type { TransformDefinition, TransformRunner } from '../component.js';
import { nativeMetric, readMetric, singleTags, type Metric } from '../support/metric.js';

const options = z.strictObject({
  host_tag: z.string().optional(),
  // Timestamps of metrics always carry their zone: accepted and checked, as Vector, without effect.
  timezone: timezone.optional(),
  log_namespace: z.boolean().optional(),
  metric_tag_values: z.enum(['single', 'full', 'auto']).default('single'),
});

type MetricToLogOptions = z.output<typeof options>;

type Path = Array<string | number>;

interface MetricToLogPlan {
  vectorNamespace: boolean;
  single: boolean;
  /** Legacy namespace: where the tag that names the host is, and where it and the timestamp go. */
  hostTag: Path;
  hostKey: Path | undefined;
  timestampKey: Path | undefined;
}

const schemaPath = (text: string): Path | undefined =>
  text === '' ? undefined : valuePath(parseFieldPath(text).segments);

const metricToLog: TransformDefinition<MetricToLogOptions, MetricToLogPlan> = {
  kind: 'transform',
  type: 'metric_to_log',
  description: 'Convert metric events to log events.',
  options,
  concurrent: true,
  inputs: () => ['metric'],
  outputs: () => [{ name: undefined, kinds: ['log'] }],
  async prepare(config, env) {
    const { host_key, timestamp_key } = env.globals.log_schema;
    const hostKey = schemaPath(host_key);
    return {
      vectorNamespace: config.log_namespace ?? env.globals.schema.log_namespace,
      single: config.metric_tag_values === 'single',
      hostTag: ['tags', ...(config.host_tag === undefined ? (hostKey ?? []) : [config.host_tag])],
      hostKey,
      timestampKey: schemaPath(timestamp_key),
    };
  },
  create: (plan) => createMetricToLog(plan),
};

export default metricToLog;

type Fields = Record<string, unknown>;

const EMPTY_VECTOR_METADATA = { vector: {} };

export function createMetricToLog(plan: MetricToLogPlan): TransformRunner {
  return {
    process(batch) {
      const reader = new BatchReader(batch.bytes);
      const out = new BatchWriter(reader.flags);
      for (const view of reader) {
        const metric = readMetric(new ByteReader(view.event).value());
        const log = logOf(metric, plan);
        if (plan.vectorNamespace) {
          const metadata = new ByteReader(view.metadata).value() as Fields;
          out.append('log', { ...metadata, ...EMPTY_VECTOR_METADATA } as RemapValue, log as RemapValue);
        } else out.appendEncoded('log', view.metadata, encode(log));
      }
      return { outputs: [{ output: undefined, batch: { bytes: out.finish(), count: out.count } }] };
    },
  };
}

/** Vector's `MetricToLog::transform_one`. */
function logOf(metric: Metric, plan: MetricToLogPlan): Fields {
  if (plan.single && metric.tags !== undefined) metric.tags = singleTags(metric.tags);
  // A set serializes from Vector's ordered set: its values sorted.
  if (metric.value.type === 'set') metric.value.values.sort();
  const log = nativeMetric(metric);
  const timestamp = metric.timestamp;
  if (plan.vectorNamespace) {
    if (timestamp !== undefined) log.timestamp = new Timestamp(timestamp).toString();
    return log;
  }
  delete log.timestamp;
  const host = removePruning(log, plan.hostTag);
  if (plan.timestampKey) insert(log, plan.timestampKey, new Timestamp(timestamp ?? BigInt(Date.now()) * 1_000_000n));
  if (host !== undefined && plan.hostKey) insert(log, plan.hostKey, host);
  return log;
}

/** Removes the value at `path` and the objects it leaves empty; returns it (undefined when absent). */
function removePruning(root: Fields, path: Path): unknown {
  const [first, ...rest] = path;
  if (typeof first !== 'string' || !Object.hasOwn(root, first)) return undefined;
  if (rest.length === 0) {
    const value = root[first];
    delete root[first];
    return value;
  }
  const child = root[first];
  if (child === null || typeof child !== 'object' || Array.isArray(child)) return undefined;
  const value = removePruning(child as Fields, rest);
  if (Object.keys(child).length === 0) delete root[first];
  return value;
}

/** Sets the value at `path`, creating (or replacing with) objects on the way. */
function insert(root: Fields, path: Path, value: unknown): void {
  let node = root;
  for (const [i, segment] of path.entries()) {
    const key = String(segment);
    if (i === path.length - 1) node[key] = value;
    else {
      const child = node[key];
      node = (
        child !== null && typeof child === 'object' && !Array.isArray(child) ? child : (node[key] = {})
      ) as Fields;
    }
  }
}
