// `internal_metrics`: the process's own metrics (the registry every component updates), scraped every
// `scrape_interval_secs` and emitted as metric events in Vector's model: absolute counters and gauges, and
// histograms as `aggregated_histogram` buckets, under `namespace`, with the series' tags.

import { z } from 'zod';
import { IntegralFloat } from '../../../abi/codec.js';
import type { MetricSample } from '../../telemetry/metrics.js';
import type { SourceDefinition } from '../component.js';
import { scrapeEvery } from '../support/metric.js';

const options = z.strictObject({
  scrape_interval_secs: z.number().nonnegative().default(1.0),
  namespace: z.string().default('svc'),
  tags: z.strictObject({ host_key: z.string().optional(), pid_key: z.string().optional() }).default({}),
});
type InternalMetricsOptions = z.infer<typeof options>;

/** A sample's value in Vector's metric model (floats stay floats even when integral). */
function metricValue(sample: MetricSample): Record<string, unknown> {
  const value = sample.value;
  switch (value.type) {
    case 'counter':
      return { counter: { value: new IntegralFloat(value.value) } };
    case 'gauge':
      return { gauge: { value: new IntegralFloat(value.value) } };
    case 'histogram':
      return {
        aggregated_histogram: {
          buckets: value.buckets.map((bucket) => ({
            upper_limit: new IntegralFloat(bucket.upperLimit),
            count: bucket.count,
          })),
          count: value.count,
          sum: new IntegralFloat(value.sum),
        },
      };
  }
}

const definition: SourceDefinition<InternalMetricsOptions> = {
  kind: 'source',
  type: 'internal_metrics',
  description: 'Expose internal metrics emitted by the running instance.',
  options,
  outputs: () => [{ name: undefined, kinds: ['metric'] }],
  async build(options, env) {
    if (options.scrape_interval_secs === 0) {
      env.log.warn(
        'Interval set to 0 secs, this could result in high CPU utilization. It is suggested to use interval >= 1 secs.',
      );
    }
    const extraTags: Record<string, string> = {};
    if (options.tags.host_key) extraTags[options.tags.host_key] = env.hostname;
    if (options.tags.pid_key) extraTags[options.tags.pid_key] = String(process.pid);
    return {
      run: (context) =>
        scrapeEvery(options.scrape_interval_secs, context, env.chunkSize, () => {
          const timestamp = new Date();
          return env.metrics.snapshot().map((sample) => ({
            kind: 'metric' as const,
            event: {
              name: sample.name,
              namespace: options.namespace,
              tags: { ...sample.tags, ...extraTags },
              timestamp,
              kind: 'absolute',
              ...metricValue(sample),
            },
          }));
        }),
    };
  },
};

export default definition;
