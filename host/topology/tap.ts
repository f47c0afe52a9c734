// Tap: samples the events passing components' outputs for the taps attached (the API's
// `outputEventsByComponentIdPatterns`, `svc tap`). The topology offers each batch leaving an output only
// while a tap is attached (`active`, the one check the untapped path makes), and only a tap whose quota of
// the current interval is not yet met takes events: the first ones of the batch, copied as records. Nothing
// is decoded to JS here; a source's undecoded frames are decoded (as the remap fed by them would) only when
// a tap takes from them. Inputs of a component are the outputs feeding it, as in Vector.

import type { ComponentKind } from '../components/component.js';
import { parseFieldPath, valuePath } from '../config/template.js';
import type { RemapValue } from '../../abi/values.js';
import { Wire } from '../../abi/wire/values.js';
import {
  BatchReader,
  BatchWriter,
  CodecModule,
  type RecordView,
  rustDebugString,
  type ValuePath,
} from '../../runtime/engine.js';
import type { EventBatch, EventKind } from './batch.js';
import { compileGlob, GlobError } from './glob.js';
import { outputId, type Graph } from './graph.js';

export interface TapComponent {
  id: string;
  kind: ComponentKind;
  type: string;
}

/** Vector's notifications about the patterns of a tap, with its messages. */
export type TapNotification =
  | { kind: 'matched'; pattern: string; message: string }
  | { kind: 'notMatched'; pattern: string; message: string }
  | { kind: 'invalidMatch'; pattern: string; invalidMatches: string[]; message: string };

/** A `log_schema` field: in the event or its metadata (`%`); undefined when the key is empty (none). */
interface SchemaField {
  metadata: boolean;
  path: ValuePath;
}

function schemaField(key: string): SchemaField | undefined {
  if (key === '') return undefined;
  const { metadata, segments } = parseFieldPath(key);
  return { metadata, path: valuePath(segments) };
}

/** What a tapped event is read and rendered with, shared by the events of a hub. */
interface TapEnvironment {
  codec(): CodecModule;
  message: SchemaField | undefined;
  timestamp: SchemaField | undefined;
}

/** One sampled event: its record alone in a batch of its own, and the component whose output it passed. */
export class TappedEvent {
  readonly kind: EventKind;
  /** The record's views into `batch`. */
  readonly record: RecordView;
  private readonly reader: BatchReader;

  constructor(
    readonly component: TapComponent,
    /** An input batch of this one record. */
    readonly batch: Uint8Array,
    private readonly environment: TapEnvironment,
  ) {
    this.reader = new BatchReader(batch);
    this.record = this.reader[Symbol.iterator]().next().value as RecordView;
    this.kind = this.record.kind;
  }

  /** The codec module to render it with. */
  get codec(): CodecModule {
    return this.environment.codec();
  }

  /** The value at `path` of the event, still encoded; undefined when there is none. */
  encodedAt(path: ValuePath): Uint8Array | undefined {
    return this.reader.readPathEncoded(this.record.event, path);
  }

  /** The event's whole value. */
  value(): RemapValue {
    return this.reader.readPath(this.record.event, [])!;
  }

  /** The log's `log_schema.message_key` field, still encoded; a non-object event (Vector's log namespace: a
   * source's payload at the root, which Vector's schema gives the `message` meaning) is its own message. */
  message(): Uint8Array | undefined {
    if (this.record.event[0] !== Wire.Object) return this.record.event;
    return this.schemaValue(this.environment.message);
  }

  /** The log's `log_schema.timestamp_key` field, still encoded. */
  timestamp(): Uint8Array | undefined {
    return this.schemaValue(this.environment.timestamp);
  }

  private schemaValue(field: SchemaField | undefined): Uint8Array | undefined {
    return field && this.reader.readPathEncoded(field.metadata ? this.record.metadata : this.record.event, field.path);
  }
}

export type TapItem = TappedEvent | TapNotification;

export interface TapRequest {
  outputsPatterns: readonly string[];
  inputsPatterns: readonly string[];
  /** ms between two deliveries of sampled events. */
  interval: number;
  /** Most events sampled per interval. */
  limit: number;
}

/** Lists waiting for a client that does not read them: beyond, the tap samples nothing (as Vector's 10). */
const MAX_PENDING = 10;

/**
 * One attached tap: yields its notifications at once, each alone, then every interval the events sampled in
 * it (when there are any). Ends when the client unsubscribes (`return()`), which detaches it.
 */
export class Tap implements AsyncIterable<TapItem[]> {
  /** Events the tap still takes in this interval. */
  private left: number;
  /** Events of batches a transform keeps unencoded or hands back for the tap in this interval (`claim`). */
  private claimed = 0;
  private sampled: TappedEvent[] = [];
  private readonly pending: TapItem[][];
  private readonly timer: NodeJS.Timeout;
  private wake: (() => void) | undefined;
  private closed = false;

  private readonly limit: number;

  constructor(
    readonly request: TapRequest,
    /** Output ids the tap samples (they follow the topology's reloads). */
    public outputs: ReadonlySet<string>,
    /** What it was last told about its patterns. */
    public notifications: readonly TapNotification[],
    private readonly detach: (tap: Tap) => void,
  ) {
    this.limit = request.limit;
    this.left = request.limit;
    this.pending = notifications.map((notification) => [notification]);
    // A tap never keeps the process alive: the API closes its subscriptions when the instance stops.
    this.timer = setInterval(() => this.cut(), request.interval).unref();
  }

  /** Events the tap takes now: none while its client leaves lists unread. */
  get wanted(): number {
    return this.pending.length < MAX_PENDING ? this.left : 0;
  }

  /** Events the tap wants beyond those of the batches already claimed for it. */
  get unclaimed(): number {
    return Math.max(0, this.wanted - this.claimed);
  }

  claim(count: number): void {
    this.claimed += count;
  }

  /** Takes what it still wants of `events` (the first ones). */
  take(events: readonly TappedEvent[]): void {
    const taken = events.slice(0, this.left);
    this.sampled.push(...taken);
    this.left -= taken.length;
  }

  /** The end of an interval: the sampled events go out and the quota starts over. */
  private cut(): void {
    if (this.sampled.length > 0) this.deliver(this.sampled);
    this.sampled = [];
    this.left = this.limit;
    this.claimed = 0;
  }

  /** Notifications about its patterns after a reload changed what they match. */
  notify(notifications: readonly TapNotification[]): void {
    for (const notification of notifications) this.deliver([notification]);
  }

  private deliver(items: TapItem[]): void {
    this.pending.push(items);
    this.wake?.();
  }

  [Symbol.asyncIterator](): AsyncIterator<TapItem[]> {
    return {
      next: async () => {
        while (this.pending.length === 0 && !this.closed) await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        return this.closed ? { done: true, value: undefined } : { done: false, value: this.pending.shift()! };
      },
      return: async () => {
        this.close();
        return { done: true, value: undefined };
      },
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.detach(this);
    this.wake?.();
  }
}

export class TapHub {
  /** Whether any tap is attached: while not, a batch's way past an output costs this one check. */
  active = false;
  /** The component of each output id of a source or transform. */
  private readonly outputs = new Map<string, TapComponent>();
  /** Output ids feeding each transform and sink. */
  private readonly inputs = new Map<string, string[]>();
  private sources: string[] = [];
  private sinks: string[] = [];
  private readonly taps = new Set<Tap>();
  /** The attached taps of each output id that some tap samples. */
  private readonly byOutput = new Map<string, Tap[]>();
  private codecModule: CodecModule | undefined;
  private readonly environment: TapEnvironment;

  /** `timezone`: the global one, which sources decode with (so do frames decoded here); `messageKey` and
   * `timestampKey`: `log_schema`'s. */
  constructor(graph: Graph, options: { timezone: string; messageKey: string; timestampKey: string }) {
    this.environment = {
      codec: () => (this.codecModule ??= new CodecModule({ timezone: options.timezone })),
      message: schemaField(options.messageKey),
      timestamp: schemaField(options.timestampKey),
    };
    this.read(graph);
  }

  /** The topology was reloaded: each tap's patterns are matched again, and a tap hears of each pattern that
   * now matches or no longer does. */
  update(graph: Graph): void {
    this.read(graph);
    for (const tap of this.taps) {
      const { outputs, notifications } = this.match(tap.request);
      const matched = (list: readonly TapNotification[]) =>
        new Set(list.filter((notification) => notification.kind === 'matched').map(({ pattern }) => pattern));
      const before = matched(tap.notifications);
      tap.notify(
        notifications.filter(
          (notification) =>
            (notification.kind === 'matched' && !before.has(notification.pattern)) ||
            (notification.kind === 'notMatched' && before.has(notification.pattern)),
        ),
      );
      tap.outputs = outputs;
      tap.notifications = notifications;
    }
    this.index();
  }

  private read(graph: Graph): void {
    this.outputs.clear();
    this.inputs.clear();
    this.sources = [];
    this.sinks = [];
    for (const spec of graph.components.values()) {
      const component = { id: spec.id, kind: spec.kind, type: spec.type };
      if (spec.kind === 'source') this.sources.push(spec.id);
      if (spec.kind === 'sink') this.sinks.push(spec.id);
      else for (const port of graph.ports.get(spec.id) ?? []) this.outputs.set(outputId(spec.id, port.name), component);
      if (spec.kind !== 'source') {
        const feeding = graph.edges
          .filter((edge) => edge.to === spec.id)
          .map((edge) => outputId(edge.from, edge.output));
        this.inputs.set(spec.id, [...new Set(feeding)]);
      }
    }
  }

  /**
   * Whether a tap wants the events of a batch of `count` that will pass `output` once a transform has run
   * it, so that the transform hands them back as a batch; they then count toward the taps' quotas until the
   * interval ends. Batches already on their way are enough: the others keep the transform's fast path.
   */
  claim(output: string, count: number): boolean {
    const taps = this.byOutput.get(output)?.filter((tap) => tap.unclaimed > 0);
    if (taps === undefined || taps.length === 0) return false;
    for (const tap of taps) tap.claim(count);
    return true;
  }

  /** A batch passes `output`: the taps that want some of its events take them. A batch a transform encoded
   * for its sink (it did because no tap wanted it when it started) is not sampled. */
  offer(output: string, batch: EventBatch): void {
    const taps = this.byOutput.get(output)?.filter((tap) => tap.wanted > 0);
    if (taps === undefined || taps.length === 0 || batch.encoded) return;
    const bytes = batch.frames ? this.environment.codec().decode(batch.bytes, batch.frames).batch : batch.bytes;
    const component = this.outputs.get(output)!;
    const reader = new BatchReader(bytes);
    const wanted = Math.min(reader.count, Math.max(...taps.map((tap) => tap.wanted)));
    const events: TappedEvent[] = [];
    for (const view of reader) {
      if (events.length === wanted) break;
      const one = new BatchWriter(reader.flags);
      one.appendRaw(view.record);
      events.push(new TappedEvent(component, one.finish(), this.environment));
    }
    for (const tap of taps) tap.take(events);
  }

  /** Attaches a tap; its notifications say what its patterns matched. */
  attach(request: TapRequest): Tap {
    const { outputs, notifications } = this.match(request);
    const tap = new Tap(request, outputs, notifications, (gone) => this.detach(gone));
    this.taps.add(tap);
    this.index();
    return tap;
  }

  /** The outputs a tap's patterns select in the running topology, and what it is told about each pattern. */
  private match(request: TapRequest): { outputs: Set<string>; notifications: TapNotification[] } {
    const outputs = new Set<string>();
    const matched: string[] = [];
    const notMatched: string[] = [];
    const invalid: TapNotification[] = [];
    const compile = (pattern: string) => {
      try {
        return compileGlob(pattern);
      } catch (error) {
        if (!(error instanceof GlobError)) throw error;
        invalid.push({
          kind: 'invalidMatch',
          pattern,
          invalidMatches: [],
          message: `[tap] Warning: pattern '${pattern}' is not a valid glob: ${error.message}.`,
        });
        return undefined;
      }
    };
    const found = (pattern: string, hits: number) => (hits > 0 ? matched : notMatched).push(pattern);
    // Vector's words, its `{:?}` of the list included.
    const wrongKind = (pattern: string, ids: string[], what: string) => {
      if (ids.length === 0) return;
      const list = `[${ids.map(rustDebugString).join(', ')}]`;
      invalid.push({
        kind: 'invalidMatch',
        pattern,
        invalidMatches: ids,
        message: `[tap] Warning: ${what.replace('%', `'${pattern}'`)} ${list}`,
      });
    };
    for (const pattern of request.outputsPatterns) {
      const test = compile(pattern);
      if (test === undefined) continue;
      const hits = [...this.outputs.keys()].filter(test);
      for (const hit of hits) outputs.add(hit);
      found(pattern, hits.length);
      wrongKind(pattern, this.sinks.filter(test), 'sink outputs cannot be tapped. Output pattern % matches sinks');
    }
    for (const pattern of request.inputsPatterns) {
      const test = compile(pattern);
      if (test === undefined) continue;
      const hits = [...this.inputs].filter(([id]) => test(id));
      for (const [, feeding] of hits) for (const output of feeding) outputs.add(output);
      found(pattern, hits.length);
      wrongKind(pattern, this.sources.filter(test), 'source inputs cannot be tapped. Input pattern % matches sources');
    }
    const notifications: TapNotification[] = [
      ...[...new Set(matched)].map((pattern) => ({
        kind: 'matched' as const,
        pattern,
        message: `[tap] Pattern '${pattern}' successfully matched.`,
      })),
      ...[...new Set(notMatched)]
        .filter((pattern) => !matched.includes(pattern))
        .map((pattern) => ({
          kind: 'notMatched' as const,
          pattern,
          message: `[tap] Pattern '${pattern}' failed to match: will retry on configuration reload.`,
        })),
      ...invalid,
    ];
    return { outputs, notifications };
  }

  private detach(tap: Tap): void {
    this.taps.delete(tap);
    this.index();
  }

  private index(): void {
    this.byOutput.clear();
    for (const tap of this.taps)
      for (const output of tap.outputs) this.byOutput.set(output, [...(this.byOutput.get(output) ?? []), tap]);
    this.active = this.taps.size > 0;
  }
}
