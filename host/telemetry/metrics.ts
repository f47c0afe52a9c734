// The process's internal metrics: counters, gauges and histograms keyed by name and tags. Components update
// them; the `internal_metrics` source and the management API read snapshots. A series not updated within its
// expiry (`expiry.ts`) leaves the registry when the registry is next read; a handle updated after that
// starts a new series (a counter restarts at zero), as Vector's expired metrics do.

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
  /** Set once the series expired and left the registry: its handles then start a new one. */
  expired = false;

  constructor(
    readonly name: string,
    readonly tags: Tags,
    readonly type: MetricValue['type'],
    /** Milliseconds without updates after which the series expires. */
    readonly expiresAfter: number,
    public updatedAt: number,
  ) {
    if (type === 'histogram') this.bucketCounts = new Array<number>(DEFAULT_BUCKETS.length).fill(0);
  }

  /** A value into a histogram. */
  add(value: number): void {
    for (let at = 0; at < DEFAULT_BUCKETS.length; at++) {
      if (value <= DEFAULT_BUCKETS[at]!) {
        this.bucketCounts![at]!++;
        break;
      }
    }
    this.count++;
    this.sum += value;
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
  /** Records each of `values` (one update for many values: a value per event). */
  recordAll(values: readonly number[]): void;
}

/** Milliseconds a series of `name` with `tags` lives without updates; Infinity when it never expires
 * (`expiry.ts` makes one from the configuration). */
export type MetricExpiry = (name: string, tags: Tags) => number;

export interface RegistryOptions {
  /** Milliseconds since the epoch (tests inject a fake clock). */
  now?: () => number;
  /** When series expire; by default never. */
  expiry?: MetricExpiry;
}

export class MetricsRegistry {
  private readonly series = new Map<string, Series>();
  private readonly now: () => number;
  private readonly expiry: MetricExpiry;
  private readonly collectors = new Set<() => void>();

  constructor(options: RegistryOptions = {}) {
    this.now = options.now ?? Date.now;
    this.expiry = options.expiry ?? (() => Infinity);
  }

  counter(name: string, tags: Tags = {}): Counter {
    const update = this.updater(name, tags, 'counter');
    return {
      increment(by = 1) {
        update().value += by;
      },
    };
  }

  gauge(name: string, tags: Tags = {}): Gauge {
    const update = this.updater(name, tags, 'gauge');
    return {
      set(value) {
        update().value = value;
      },
    };
  }

  histogram(name: string, tags: Tags = {}): Histogram {
    const update = this.updater(name, tags, 'histogram');
    return {
      record(value) {
        update().add(value);
      },
      recordAll(values) {
        if (values.length === 0) return;
        const series = update();
        for (const value of values) series.add(value);
      },
    };
  }

  /** Runs `collect` before each read of the series (snapshot, total): it moves counts kept elsewhere (shared
   * with other threads) into them. Returns its removal. */
  collectBeforeReads(collect: () => void): () => void {
    this.collectors.add(collect);
    return () => this.collectors.delete(collect);
  }

  snapshot(): MetricSample[] {
    for (const collect of this.collectors) collect();
    this.expire();
    return [...this.series.values()].map((series) => series.sample());
  }

  /** Sum of a counter's or gauge's series whose tags include `tags` (tests, `svc top`). */
  total(name: string, tags: Tags = {}): number {
    for (const collect of this.collectors) collect();
    this.expire();
    let total = 0;
    for (const series of this.series.values()) {
      if (series.name === name && Object.entries(tags).every(([k, v]) => series.tags[k] === v)) total += series.value;
    }
    return total;
  }

  /** What a handle calls before each update: the live series (a new one once the last expired), stamped
   * as updated now. */
  private updater(name: string, tags: Tags, type: MetricValue['type']): () => Series {
    let series = this.get(name, tags, type);
    return () => {
      if (series.expired) series = this.get(name, tags, type);
      series.updatedAt = this.now();
      return series;
    };
  }

  /** Removes the series not updated within their expiry. */
  private expire(): void {
    const now = this.now();
    for (const [key, series] of this.series) {
      if (now - series.updatedAt > series.expiresAfter) {
        series.expired = true;
        this.series.delete(key);
      }
    }
  }

  private get(name: string, tags: Tags, type: MetricValue['type']): Series {
    const key = `${name}\0${Object.keys(tags)
      .sort()
      .map((k) => `${k}=${tags[k]}`)
      .join('\0')}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = new Series(name, { ...tags }, type, this.expiry(name, tags), this.now());
      this.series.set(key, series);
    } else if (series.type !== type) {
      throw new Error(`metric ${name} is a ${series.type}, not a ${type}`);
    }
    return series;
  }
}
