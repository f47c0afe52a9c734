// The metrics every component updates (spec 2's telemetry table), tagged with the component's id, kind
// and type. The output tag is Vector's: `_default` for a component's default output.

import type { ComponentKind } from '../components/component.js';
import type { Counter, Gauge, Histogram, MetricsRegistry, Tags } from './metrics.js';

export const DEFAULT_OUTPUT_TAG = '_default';

export class ComponentTelemetry {
  readonly tags: Tags;
  private readonly receivedEvents: Counter;
  private readonly receivedEventBytes: Counter;
  private readonly receivedBytes: Counter;
  private readonly receivedEventsCount: Histogram;
  private readonly sentByOutput = new Map<string, { events: Counter; bytes: Counter }>();
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly registry: MetricsRegistry,
    id: string,
    kind: ComponentKind,
    type: string,
  ) {
    this.tags = { component_id: id, component_kind: kind, component_type: type };
    this.receivedEvents = registry.counter('component_received_events_total', this.tags);
    this.receivedEventBytes = registry.counter('component_received_event_bytes_total', this.tags);
    this.receivedBytes = registry.counter('component_received_bytes_total', this.tags);
    this.receivedEventsCount = registry.histogram('component_received_events_count', this.tags);
  }

  /** Events that entered the component (`eventBytes`: their encoded size). */
  received(events: number, eventBytes: number): void {
    this.receivedEvents.increment(events);
    this.receivedEventBytes.increment(eventBytes);
    this.receivedEventsCount.record(events);
  }

  /** Bytes a source read from the outside, before decoding. */
  receivedRaw(bytes: number): void {
    this.receivedBytes.increment(bytes);
  }

  sent(output: string | undefined, events: number, eventBytes: number): void {
    const tag = output ?? DEFAULT_OUTPUT_TAG;
    let counters = this.sentByOutput.get(tag);
    if (counters === undefined) {
      const tags = { ...this.tags, output: tag };
      counters = {
        events: this.registry.counter('component_sent_events_total', tags),
        bytes: this.registry.counter('component_sent_event_bytes_total', tags),
      };
      this.sentByOutput.set(tag, counters);
    }
    counters.events.increment(events);
    counters.bytes.increment(eventBytes);
  }

  /** Bytes a sink wrote to the outside. */
  sentRaw(bytes: number): void {
    this.counter('component_sent_bytes_total', {}).increment(bytes);
  }

  discarded(count: number, intentional: boolean): void {
    this.counter('component_discarded_events_total', { intentional: String(intentional) }).increment(count);
  }

  /** Vector's (deprecated) per-key discard counter, for components that opt into it. */
  discardedForKey(key: string, count: number): void {
    this.counter('events_discarded_total', { key }).increment(count);
  }

  error(errorType: string, stage: string, count = 1): void {
    this.counter('component_errors_total', { error_type: errorType, stage }).increment(count);
  }

  /** A gauge of this component, e.g. the buffer gauges. */
  gauge(name: string, extra: Tags = {}): Gauge {
    return this.registry.gauge(name, { ...this.tags, ...extra });
  }

  private counter(name: string, extra: Tags): Counter {
    const key = `${name}\0${Object.values(extra).join('\0')}`;
    let counter = this.counters.get(key);
    if (counter === undefined) {
      counter = this.registry.counter(name, { ...this.tags, ...extra });
      this.counters.set(key, counter);
    }
    return counter;
  }
}
