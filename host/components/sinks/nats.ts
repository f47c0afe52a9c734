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
import { encodeOptions, encodingSchema, SinkEncoder } from '../support/encoding.js';
import { EventTemplate } from '../support/event-template.js';
import { natsConnect, natsConnectionFields, natsFiles } from '../support/nats.js';
import { answeredWithin, MessageSink, type Messages } from '../support/message-sink.js';
import { requestFields } from '../support/request.js';
import { realTimer, type RetryTimer } from '../support/retry.js';
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

class NatsSink extends MessageSink {
  constructor(
    private readonly options: NatsSinkOptions,
    private readonly connection: NatsConnection,
    private readonly jetstream: JetStreamClient | undefined,
    subject: EventTemplate,
    encoder: SinkEncoder,
    env: ComponentEnv,
    timer: RetryTimer,
  ) {
    super(options.request, subject, encoder, env, timer, 'Publishing to NATS failed');
  }

  protected async attempt(messages: Messages): Promise<void> {
    const timeout = this.options.request.timeout_secs * 1000;
    if (this.jetstream) {
      const stored = messages.flatMap(({ destination, payloads }) =>
        payloads.map((payload) => this.jetstream!.publish(destination, payload, { timeout })),
      );
      await Promise.all(stored);
      return;
    }
    for (const { destination, payloads } of messages)
      for (const payload of payloads) this.connection.publish(destination, payload);
    await answeredWithin(this.connection.flush(), timeout);
  }

  protected async disconnect(): Promise<void> {
    await this.connection.drain().catch(() => this.connection.close());
  }

  protected drop(): void {
    void this.connection.close();
  }

  async healthcheck(): Promise<void> {
    await this.connection.flush();
  }
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
