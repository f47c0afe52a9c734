// One scrape of host_metrics: its series, each tagged with its collector and the host and stamped with the
// scrape's time, as absolute counters and gauges under the source's namespace.

import type { Metric, MetricTags } from '../../support/metric.js';

/** Collectors set `collector` before adding their series. */
export class MetricsBuffer {
  readonly metrics: Metric[] = [];
  collector = '';
  private readonly timestamp = BigInt(Date.now()) * 1_000_000n;

  constructor(
    private readonly namespace: string | undefined,
    private readonly host: string,
  ) {}

  counter(name: string, value: number, tags: MetricTags = {}): void {
    this.push(name, { type: 'counter', value }, tags);
  }

  gauge(name: string, value: number, tags: MetricTags = {}): void {
    this.push(name, { type: 'gauge', value }, tags);
  }

  private push(name: string, value: Metric['value'], tags: MetricTags): void {
    const metric: Metric = {
      name,
      tags: { ...tags, collector: this.collector, host: this.host },
      timestamp: this.timestamp,
      kind: 'absolute',
      value,
    };
    if (this.namespace !== undefined) metric.namespace = this.namespace;
    this.metrics.push(metric);
  }
}
