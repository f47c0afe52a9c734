// The `nats` sink: each event encoded as one message published on `subject`, a template rendered per event
// (`{{ host }}`, strftime). With `jetstream` the messages are published to JetStream and a batch is delivered
// once the server stored every message of it (its publish acknowledgements); on core NATS, once the server
// answered a flush after them. A batch that fails is retried with Vector's backoff (`request.*`); `request.
// concurrency` batches are published at once (default one, as Vector's sink). Given-up events are counted as
// errors and discarded.

import { z } from 'zod';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { releaseBytes, type EventBatch } from '../../topology/batch.js';
import { InFlight } from '../support/concurrency.js';
import { encodeOptions, encodingSchema, SinkEncoder } from '../support/encoding.js';
import { EventTemplate } from '../support/event-template.js';
import { natsConnect, natsConnectionFields, natsFiles } from '../support/nats.js';
import { concurrencyLimit, RateLimit, requestFields } from '../support/request.js';
import { realTimer, type RetryTimer, withRetries } from '../support/retry.js';
import { templateOption } from '../../config/template.js';

const options = z.strictObject({
  ...natsConnectionFields,
  connection_name: z.string().default('svc'),
  subject: templateOption(),
  encoding: encodingSchema,
  // A bare boolean, or the table Vector also accepts.
  jetstream: z
    .union([z.boolean().transform((enabled) => ({ enabled })), z.strictObject({ enabled: z.boolean().default(false) })])
    .default({ enabled: false }),
  request: requestFields('none').prefault({}),
});
type NatsSinkOptions = z.infer<typeof options>;

class NatsSink implements Sink {
  private readonly inFlight: InFlight;
  private readonly rateLimit: RateLimit;
  /** Events written and neither delivered nor given up on yet. */
  private pending = 0;
  private readonly killed = new AbortController();

  constructor(
    private readonly options: NatsSinkOptions,
    private readonly connection: NatsConnection,
    private readonly jetstream: JetStreamClient | undefined,
    private readonly subject: EventTemplate,
    private readonly encoder: SinkEncoder,
    private readonly env: ComponentEnv,
    private readonly timer: RetryTimer,
  ) {
    this.inFlight = new InFlight(concurrencyLimit(options.request));
    this.rateLimit = new RateLimit(options.request);
  }

  async write(batch: EventBatch): Promise<void> {
    // Encoded now: the batch's bytes may be freed once written.
    const messages = [...this.subject.group(batch, this.env)].map(([subject, events]) => ({
      subject,
      // An event that failed to encode (counted by the encoder) has no message.
      payloads: this.encoder.encodeEach(events).filter((payload) => payload !== undefined),
    }));
    releaseBytes(batch);
    const count = messages.reduce((total, { payloads }) => total + payloads.length, 0);
    this.pending += count;
    await this.rateLimit.take();
    await this.inFlight.start(async () => {
      const delivered = await this.publish(messages);
      this.pending -= count;
      if (this.killed.signal.aborted) return;
      if (!delivered) {
        this.env.telemetry.discarded(count, false);
        batch.finalizer?.release('errored');
        return;
      }
      this.env.telemetry.sentRaw(messages.reduce((total, { payloads }) => total + bytesOf(payloads), 0));
      batch.finalizer?.release();
    });
  }

  /** Publishes the messages until the server took them all or the retries are spent. */
  private async publish(messages: Array<{ subject: string; payloads: Uint8Array[] }>): Promise<boolean> {
    return withRetries(
      () => this.attempt(messages),
      this.options.request,
      this.timer,
      this.killed.signal,
      this.env,
      'Publishing to NATS failed',
    );
  }

  private async attempt(messages: Array<{ subject: string; payloads: Uint8Array[] }>): Promise<void> {
    const timeout = this.options.request.timeout_secs * 1000;
    if (this.jetstream) {
      const stored = messages.flatMap(({ subject, payloads }) =>
        payloads.map((payload) => this.jetstream!.publish(subject, payload, { timeout })),
      );
      await Promise.all(stored);
      return;
    }
    for (const { subject, payloads } of messages)
      for (const payload of payloads) this.connection.publish(subject, payload);
    await Promise.race([
      this.connection.flush(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${timeout / 1000} s`)), timeout).unref(),
      ),
    ]);
  }

  async close(): Promise<void> {
    await this.inFlight.idle();
    await this.connection.drain().catch(() => this.connection.close());
  }

  kill(): number {
    this.killed.abort();
    void this.connection.close();
    return this.pending;
  }

  async healthcheck(): Promise<void> {
    await this.connection.flush();
  }
}

function bytesOf(payloads: readonly Uint8Array[]): number {
  return payloads.reduce((total, payload) => total + payload.byteLength, 0);
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildNatsSink(options: NatsSinkOptions, env: ComponentEnv, timer = realTimer): Promise<Sink> {
  const subject = await EventTemplate.build('subject', options.subject, env, { timezone: env.globals.timezone });
  const encoder = new SinkEncoder(
    encodeOptions(options.encoding, undefined, 'message', env.globals.log_schema.message_key),
    env,
  );
  const connection = await natsConnect(options, env.log);
  const jetstream = options.jetstream.enabled ? (await import('@nats-io/jetstream')).jetstream(connection) : undefined;
  return new NatsSink(options, connection, jetstream, subject, encoder, env, timer);
}

const nats: SinkDefinition<NatsSinkOptions> = {
  kind: 'sink',
  type: 'nats',
  description: 'Publish observability data to subjects on the NATS messaging system.',
  options,
  files: natsFiles,
  inputs: () => ['log', 'metric', 'trace'],
  build: (options, env) => buildNatsSink(options, env),
};

export default nats;
