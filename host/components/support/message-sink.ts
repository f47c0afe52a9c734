// What the sinks that send each event as a message to a broker share (nats, redis): the events of a batch
// grouped by the destination their template renders to (a subject, a key), encoded one by one, sent with
// `request.*`'s concurrency, rate limit and retries (Vector's backoff). A batch is delivered once the broker
// took all of its messages, errored (its events counted as discarded) once the retries are spent. Each sink
// says how one attempt sends the messages, and how its connection closes.

import { setMaxListeners } from 'node:events';
import type { ComponentEnv, Sink } from '../component.js';
import { releaseBytes, type EventBatch } from '../../topology/batch.js';
import { InFlight } from './concurrency.js';
import type { SinkEncoder } from './encoding.js';
import type { EventTemplate } from './event-template.js';
import { concurrencyLimit, RateLimit, type RequestOptions } from './request.js';
import { type RetryTimer, withRetries } from './retry.js';

/** A destination of a batch with the encoded events for it, in order. */
export interface DestinationMessages {
  destination: string;
  payloads: Uint8Array[];
}
/** Each destination of a batch with its messages. */
export type Messages<M extends DestinationMessages = DestinationMessages> = M[];

export abstract class MessageSink<M extends DestinationMessages = DestinationMessages> implements Sink {
  private readonly inFlight: InFlight;
  private readonly rateLimit: RateLimit;
  /** Events written and neither delivered nor given up on yet. */
  private pending = 0;
  protected readonly killed = new AbortController();

  constructor(
    protected readonly request: RequestOptions,
    /** Groups a batch's events by destination (an EventTemplate, or a sink's own rendering). */
    private readonly destination: Pick<EventTemplate, 'group'>,
    protected readonly encoder: SinkEncoder,
    protected readonly env: ComponentEnv,
    private readonly timer: RetryTimer,
    /** How a failed attempt is logged: `<failed>: <reason>`. */
    private readonly failed: string,
  ) {
    this.inFlight = new InFlight(concurrencyLimit(request));
    this.rateLimit = new RateLimit(request);
    // Every batch under way or waiting to retry may listen to it (past ten, Node warns of a leak).
    setMaxListeners(0, this.killed.signal);
  }

  /** Sends the messages once; rejects when the broker did not take them all. */
  protected abstract attempt(messages: Messages<M>): Promise<void>;

  /** The messages of the events of a batch that `destination` renders to: each event encoded (a sink whose
   * messages carry more overrides this). */
  protected messagesFor(destination: string, events: EventBatch): M {
    // An event that failed to encode (counted by the encoder) has no message.
    return { destination, payloads: this.encoder.encodeEach(events).filter((payload) => payload !== undefined) } as M;
  }

  /** Closes the connection once what was sent is answered. */
  protected abstract disconnect(): Promise<void>;

  /** Drops the connection at once. */
  protected abstract drop(): void;

  async write(batch: EventBatch): Promise<void> {
    // Encoded now: the batch's bytes may be freed once written.
    const messages = [...this.destination.group(batch, this.env)].map(([destination, events]) =>
      this.messagesFor(destination, events),
    );
    releaseBytes(batch);
    const count = messages.reduce((total, { payloads }) => total + payloads.length, 0);
    this.pending += count;
    await this.rateLimit.take();
    await this.inFlight.start(async () => {
      const delivered = await withRetries(
        () => this.attempt(messages),
        this.request,
        this.timer,
        this.killed.signal,
        this.env,
        this.failed,
      );
      this.pending -= count;
      if (this.killed.signal.aborted) return;
      if (!delivered) {
        this.env.telemetry.discarded(count, false);
        batch.finalizer?.release('errored');
        return;
      }
      const bytes = messages.reduce(
        (total, { payloads }) => total + payloads.reduce((sum, payload) => sum + payload.byteLength, 0),
        0,
      );
      this.env.telemetry.sentRaw(bytes);
      batch.finalizer?.release();
    });
  }

  async close(): Promise<void> {
    await this.inFlight.idle();
    await this.disconnect();
  }

  kill(): number {
    this.killed.abort();
    this.drop();
    return this.pending;
  }
}

/** Rejects after `timeoutMs` unless `work` settled first (a broker that does not answer). */
export async function answeredWithin<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
