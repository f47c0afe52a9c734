// The `influxdb_metrics` sink, as Vector's: metrics written to InfluxDB (v1 `/write` or v2 `/api/v2/write`,
// support/influxdb.ts) in line protocol, one line per metric: the measurement `<namespace>.<name>` (the
// metric's namespace, else `default_namespace`), its tags with `tags` added and `metric_type`, and fields by
// type — `value` for counters, gauges and sets (their size), `bucket_<le>`, `count`, `sum` for aggregated
// histograms, `quantile_<q>`, `count`, `sum` for aggregated summaries, and for distributions `min`, `max`,
// `median`, `avg`, `sum`, `count` and `quantile_<q>` (`quantiles` for summaries, 0.95 for histograms).
// Counters are sent incremental and gauges absolute (MetricNormalizer). Batches of 20 metrics by default;
// requests, retries, concurrency and TLS are those of every HTTP sink (support/http-batch-sink.ts).

import { z } from 'zod';
import type { RemapValue } from '../../../runtime/index.js';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { batchSchema, type HttpClient, httpClient, httpTlsSchema, requestSchema } from '../support/http-batch-sink.js';
import {
  checkInfluxDbSettings,
  type Field,
  InfluxDbBatchSink,
  influxDbFields,
  lineProtocol,
  rustFloat,
} from '../support/influxdb.js';
import { distributionStatistic, type Metric, MetricNormalizer, readMetric, tagValue } from '../support/metric.js';
import { realTimer, type RetryTimer } from '../support/retry.js';
import { tlsFiles } from '../support/tls.js';

const options = z
  .strictObject({
    ...influxDbFields,
    default_namespace: z.string().optional(),
    // Vector's older name.
    namespace: z.string().optional(),
    tags: z.record(z.string(), z.string()).optional(),
    quantiles: z
      .array(z.number().min(0, 'Quantiles must be in range [0.0,1.0]').max(1, 'Quantiles must be in range [0.0,1.0]'))
      .default([0.5, 0.75, 0.9, 0.95, 0.99]),
    request: requestSchema,
    // Vector counts metrics only: no byte limit.
    batch: batchSchema({ max_bytes: Number.MAX_SAFE_INTEGER, max_events: 20, timeout_secs: 1 }),
    tls: httpTlsSchema.optional(),
  })
  .check(checkInfluxDbSettings);

type InfluxDbMetricsOptions = z.infer<typeof options>;

const float = (value: number): Field => ({ type: 'float', value });
const unsigned = (value: number): Field => ({ type: 'unsigned', value: BigInt(Math.trunc(value)) });

/** Vector's `metric_type` tag and the fields of a metric; no fields for a distribution without samples or a
 * sketch (svc keeps sketches opaque). */
function typeAndFields(metric: Metric, quantiles: readonly number[]): [string, Array<[string, Field]>] {
  const { value } = metric;
  switch (value.type) {
    case 'counter':
    case 'gauge':
      return [value.type, [['value', float(value.value)]]];
    case 'set':
      return ['set', [['value', float(value.values.length)]]];
    case 'aggregated_histogram':
      return [
        'histogram',
        [
          ...value.buckets.map((bucket): [string, Field] => [
            `bucket_${rustFloat(bucket.upper_limit)}`,
            unsigned(bucket.count),
          ]),
          ['count', unsigned(value.count)],
          ['sum', float(value.sum)],
        ],
      ];
    case 'aggregated_summary':
      return [
        'summary',
        [
          ...value.quantiles.map((q): [string, Field] => [`quantile_${rustFloat(q.quantile)}`, float(q.value)]),
          ['count', unsigned(value.count)],
          ['sum', float(value.sum)],
        ],
      ];
    case 'distribution': {
      const statistic = distributionStatistic(value.samples, value.statistic === 'histogram' ? [0.95] : quantiles);
      if (statistic === undefined) return ['distribution', []];
      return [
        'distribution',
        [
          ['min', float(statistic.min)],
          ['max', float(statistic.max)],
          ['median', float(statistic.median)],
          ['avg', float(statistic.avg)],
          ['sum', float(statistic.sum)],
          ['count', float(statistic.count)],
          ...statistic.quantiles.map(([p, v]): [string, Field] => [`quantile_${p!.toFixed(2)}`, float(v!)]),
        ],
      ];
    }
    case 'sketch':
      return ['sketch', []];
  }
}

class InfluxDbMetricsSink extends InfluxDbBatchSink {
  private readonly normalizer = new MetricNormalizer();
  private readonly namespace: string | undefined;

  constructor(
    private readonly options: InfluxDbMetricsOptions,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
  ) {
    super(options, env, client, timer, false);
    this.namespace = options.default_namespace ?? options.namespace;
  }

  protected line(event: RemapValue): string | undefined | null {
    // A first absolute counter only sets the reference.
    const metric = this.normalizer.normalize(readMetric(event));
    return metric === undefined ? null : this.metricLine(metric);
  }

  private metricLine(metric: Metric): string | undefined {
    const namespace = metric.namespace ?? this.namespace;
    const measurement = namespace === undefined ? metric.name : `${namespace}.${metric.name}`;
    const tags: Record<string, string> = {};
    for (const key of Object.keys(metric.tags ?? {})) {
      const value = tagValue(metric.tags, key);
      if (value !== null && value !== undefined) tags[key] = value;
    }
    Object.assign(tags, this.options.tags);
    const [metricType, fields] = typeAndFields(metric, this.options.quantiles);
    tags.metric_type = metricType;
    return lineProtocol(this.version, measurement, tags, fields, metric.timestamp ?? BigInt(Date.now()) * 1_000_000n);
  }
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildInfluxDbMetricsSink(
  parsed: InfluxDbMetricsOptions,
  env: ComponentEnv,
  timer: RetryTimer,
): Promise<Sink> {
  return new InfluxDbMetricsSink(parsed, env, await httpClient(parsed.tls, env), timer);
}

const influxDbMetrics: SinkDefinition<InfluxDbMetricsOptions> = {
  kind: 'sink',
  type: 'influxdb_metrics',
  description: 'Deliver metric event data to InfluxDB.',
  options,
  files: (parsed) => tlsFiles(parsed.tls),
  inputs: () => ['metric'],
  build: (parsed, env) => buildInfluxDbMetricsSink(parsed, env, realTimer),
};

export default influxDbMetrics;
