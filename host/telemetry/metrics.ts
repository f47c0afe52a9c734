// The process's internal metrics: counters, gauges and histograms keyed by name and tags. Components update
// them; the `internal_metrics` source and the management API read snapshots.

export type Tags = Readonly<Record<string, string>>;

export type MetricValue =
  | { type: 'counter'; value: number }
  | { type: 'gauge'; value: number }
  | { type: 'histogram'; buckets: Array<{ upperLimit: number; count: number }>; count: number; sum: number };

export interface MetricSample {
  name: string;
  tags: Tags;
  value: MetricValue;
  /** Last update, in ms since the epoch. */
  updatedAt: number;
}

/** Vector's default histogram buckets (its `metrics` crate exporter's). */
const DEFAULT_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000,
] as const;

class Series {
  value = 0;
  sum = 0;
  count = 0;
  bucketCounts: number[] | undefined;
  updatedAt = Date.now();

  constructor(
    readonly name: string,
    readonly tags: Tags,
    readonly type: MetricValue['type'],
  ) {
    if (type === 'histogram') this.bucketCounts = new Array<number>(DEFAULT_BUCKETS.length).fill(0);
  }

  sample(): MetricSample {
    const value: MetricValue =
      this.type === 'histogram'
        ? {
            type: 'histogram',
            buckets: DEFAULT_BUCKETS.map((upperLimit, i) => ({ upperLimit, count: this.bucketCounts![i]! })),
            count: this.count,
            sum: this.sum,
          }
        : { type: this.type, value: this.value };
    return { name: this.name, tags: this.tags, value, updatedAt: this.updatedAt };
  }
}

export interface Counter {
  increment(by?: number): void;
}
export interface Gauge {
  set(value: number): void;
}
export interface Histogram {
  record(value: number): void;
}

export class MetricsRegistry {
  private readonly series = new Map<string, Series>();

  counter(name: string, tags: Tags = {}): Counter {
    const series = this.get(name, tags, 'counter');
    return {
      increment(by = 1) {
        series.value += by;
        series.updatedAt = Date.now();
      },
    };
  }

  gauge(name: string, tags: Tags = {}): Gauge {
    const series = this.get(name, tags, 'gauge');
    return {
      set(value) {
        series.value = value;
        series.updatedAt = Date.now();
      },
    };
  }

  histogram(name: string, tags: Tags = {}): Histogram {
    const series = this.get(name, tags, 'histogram');
    return {
      record(value) {
        const at = DEFAULT_BUCKETS.findIndex((limit) => value <= limit);
        if (at >= 0) series.bucketCounts![at]!++;
        series.count++;
        series.sum += value;
        series.updatedAt = Date.now();
      },
    };
  }

  snapshot(): MetricSample[] {
    return [...this.series.values()].map((series) => series.sample());
  }

  /** Sum of a counter's or gauge's series whose tags include `tags` (tests, `svc top`). */
  total(name: string, tags: Tags = {}): number {
    let total = 0;
    for (const series of this.series.values()) {
      if (series.name === name && Object.entries(tags).every(([k, v]) => series.tags[k] === v)) total += series.value;
    }
    return total;
  }

  private get(name: string, tags: Tags, type: MetricValue['type']): Series {
    const key = `${name}\0${Object.keys(tags)
      .sort()
      .map((k) => `${k}=${tags[k]}`)
      .join('\0')}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = new Series(name, { ...tags }, type);
      this.series.set(key, series);
    } else if (series.type !== type) {
      throw new Error(`metric ${name} is a ${series.type}, not a ${type}`);
    }
    return series;
  }
}
