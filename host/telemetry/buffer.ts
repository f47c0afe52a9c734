// The metrics of the buffers between components, as Vector names them: `source_buffer_*` and
// `transform_buffer_*` (the buffer a source's output sends into, the buffer feeding a transform) and the
// `buffer_*` family of a sink's buffer.

import type { Counter, Gauge, Histogram, MetricsRegistry, Tags } from './metrics.js';

/** An exponentially weighted moving average: `alpha` is the weight of the average so far (closer to 1
 * follows new values more slowly); the first value is taken as is. */
export class Ewma {
  private average: number | undefined;

  constructor(private readonly alpha: number) {}

  update(value: number): number {
    this.average = this.average === undefined ? value : this.alpha * this.average + (1 - this.alpha) * value;
    return this.average;
  }
}

/** A source or transform buffer: its limit once, and on every change the events it holds, as a histogram, a
 * level gauge and a mean gauge (smoothed by `buffer_utilization_ewma_alpha`). */
export class BufferUtilization {
  private readonly histogram: Histogram;
  private readonly level: Gauge;
  private readonly mean: Gauge;
  private readonly ewma: Ewma;

  constructor(
    registry: MetricsRegistry,
    prefix: 'source_buffer' | 'transform_buffer',
    tags: Tags,
    maxEvents: number,
    alpha: number,
  ) {
    registry.gauge(`${prefix}_max_size_events`, tags).set(maxEvents);
    // Deprecated name (Vector still emits both).
    registry.gauge(`${prefix}_max_event_size`, tags).set(maxEvents);
    this.histogram = registry.histogram(`${prefix}_utilization`, tags);
    this.level = registry.gauge(`${prefix}_utilization_level`, tags);
    this.mean = registry.gauge(`${prefix}_utilization_mean`, tags);
    this.ewma = new Ewma(alpha);
  }

  /** The buffer now holds `events`. */
  record(events: number): void {
    this.histogram.record(events);
    this.level.set(events);
    this.mean.set(this.ewma.update(events));
  }
}

/** A sink's buffer (Vector's `buffer_*` metrics, one stage: `stage` 0, `buffer_id` the sink's id). */
export class SinkBufferTelemetry {
  private readonly sizeEvents: Gauge;
  private readonly sizeBytes: Gauge;
  private readonly receivedEvents: Counter;
  private readonly receivedBytes: Counter;
  private readonly sentEvents: Counter;
  private readonly sentBytes: Counter;
  private readonly discardedEvents: Counter;
  private readonly discardedBytes: Counter;

  constructor(
    private readonly registry: MetricsRegistry,
    private readonly componentTags: Tags,
  ) {
    const tags = { ...componentTags, buffer_id: componentTags.component_id!, stage: '0' };
    this.sizeEvents = registry.gauge('buffer_size_events', tags);
    this.sizeBytes = registry.gauge('buffer_size_bytes', tags);
    this.receivedEvents = registry.counter('buffer_received_events_total', tags);
    this.receivedBytes = registry.counter('buffer_received_bytes_total', tags);
    this.sentEvents = registry.counter('buffer_sent_events_total', tags);
    this.sentBytes = registry.counter('buffer_sent_bytes_total', tags);
    const dropped = { ...tags, intentional: 'false' };
    this.discardedEvents = registry.counter('buffer_discarded_events_total', dropped);
    this.discardedBytes = registry.counter('buffer_discarded_bytes_total', dropped);
  }

  /** A batch entered the buffer, which now holds `events` and `bytes`. */
  received(count: number, byteSize: number, events: number, bytes: number): void {
    this.receivedEvents.increment(count);
    this.receivedBytes.increment(byteSize);
    this.size(events, bytes);
  }

  /** A batch left the buffer for the sink. */
  sent(count: number, byteSize: number, events: number, bytes: number): void {
    this.sentEvents.increment(count);
    this.sentBytes.increment(byteSize);
    this.size(events, bytes);
  }

  /** A batch that did not fit (`when_full: drop_newest`). */
  discarded(count: number, byteSize: number): void {
    this.discardedEvents.increment(count);
    this.discardedBytes.increment(byteSize);
  }

  /** A disk buffer opened holding `events` and `bytes` left from the last run. */
  recovered(events: number, bytes: number): void {
    this.size(events, bytes);
  }

  /** Disk buffer records that could not be read (`errorCode` as Vector's), and the events and bytes lost. */
  corrupted(errorCode: string, count: number, byteSize: number): void {
    this.registry
      .counter('buffer_errors_total', {
        ...this.componentTags,
        error_code: errorCode,
        error_type: 'reader_failed',
        stage: 'processing',
      })
      .increment();
    this.discarded(count, byteSize);
  }

  private size(events: number, bytes: number): void {
    this.sizeEvents.set(events);
    this.sizeBytes.set(bytes);
  }
}
