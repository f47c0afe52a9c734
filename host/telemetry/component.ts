// The metrics every component updates (spec 2's telemetry table), tagged with the component's id, kind
// and type. The output tag is Vector's: `_default` for a component's default output.

import type { ComponentKind } from '../config/schema.js';
import type { Counter, Gauge, Histogram, MetricsRegistry, Tags } from './metrics.js';

export const DEFAULT_OUTPUT_TAG = '_default';

/** `telemetry.tags`: add `service` and `source` tags to the received and sent event counters. */
export interface EventTagOptions {
  emit_service: boolean;
  emit_source: boolean;
}

type EventCounters = { events: Counter; bytes: Counter };

export class ComponentTelemetry {
  readonly tags: Tags;
  private readonly receivedBytes: Counter;
  private readonly receivedEventsCount: Histogram;
  /** Received and sent event counters by output and source (the tags they differ by). */
  private readonly receivedBy = new Map<string, EventCounters>();
  private readonly sentBy = new Map<string, EventCounters>();
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly registry: MetricsRegistry,
    id: string,
    kind: ComponentKind,
    type: string,
    private readonly eventTags: EventTagOptions = { emit_service: false, emit_source: false },
  ) {
    this.tags = { component_id: id, component_kind: kind, component_type: type };
    this.receivedBytes = registry.counter('component_received_bytes_total', this.tags);
    this.receivedEventsCount = registry.histogram('component_received_events_count', this.tags);
    // Present from the start, at zero (when they do not vary by source).
    if (!eventTags.emit_source) this.eventCounters(this.receivedBy, 'component_received', undefined, undefined);
  }

  /** Events that entered the component (`eventBytes`: their encoded size; `sourceId`: the source they came
   * from, see `eventCounters`). */
  received(events: number, eventBytes: number, sourceId?: string): void {
    const counters = this.eventCounters(this.receivedBy, 'component_received', undefined, sourceId);
    counters.events.increment(events);
    counters.bytes.increment(eventBytes);
    this.receivedEventsCount.record(events);
  }

  /** Bytes a source read from the outside, before decoding. */
  receivedRaw(bytes: number): void {
    this.receivedBytes.increment(bytes);
  }

  sent(output: string | undefined, events: number, eventBytes: number, sourceId?: string): void {
    this.countSent(output ?? DEFAULT_OUTPUT_TAG, events, eventBytes, sourceId);
  }

  /** Events a sink has written out: Vector's sinks count them as sent, with no `output` tag. */
  delivered(events: number, eventBytes: number, sourceId?: string): void {
    this.countSent(undefined, events, eventBytes, sourceId);
  }

  private countSent(
    outputTag: string | undefined,
    events: number,
    eventBytes: number,
    sourceId: string | undefined,
  ): void {
    const counters = this.eventCounters(this.sentBy, 'component_sent', outputTag, sourceId);
    counters.events.increment(events);
    counters.bytes.increment(eventBytes);
  }

  /**
   * The received or sent event counters of `output` for events from `sourceId`. The `source` tag: the id of the source component the events came from (Vector reads it from each
   * event's metadata; svc tracks it per batch), or `-` when unknown. A source's events are its own. The
   * `service` tag is always `-`: svc's events carry no service (Vector takes it from the field with the
   * `service` meaning of the event's schema, which svc does not track).
   */
  private eventCounters(
    cache: Map<string, EventCounters>,
    prefix: string,
    output: string | undefined,
    sourceId: string | undefined,
  ): EventCounters {
    const source = this.eventTags.emit_source
      ? (sourceId ?? (this.tags.component_kind === 'source' ? this.tags.component_id! : '-'))
      : undefined;
    const key = `${output}\0${source}`;
    let counters = cache.get(key);
    if (counters === undefined) {
      const tags: Record<string, string> = { ...this.tags };
      if (output !== undefined) tags.output = output;
      if (this.eventTags.emit_service) tags.service = '-';
      if (source !== undefined) tags.source = source;
      counters = {
        events: this.registry.counter(`${prefix}_events_total`, tags),
        bytes: this.registry.counter(`${prefix}_event_bytes_total`, tags),
      };
      cache.set(key, counters);
    }
    return counters;
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

  error(errorType: string, stage: string, count = 1, tags: Tags = {}): void {
    this.counter('component_errors_total', { error_type: errorType, stage, ...tags }).increment(count);
  }

  /** A counter of this component's own (`TransformResult.counters`). */
  increment(name: string, count: number, tags: Tags = {}): void {
    this.counter(name, tags).increment(count);
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
