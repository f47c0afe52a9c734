// The `nats` sink: each event encoded as one message published on `subject`, a template rendered per event
// (`{{ host }}`, strftime). With `jetstream` the messages are published to JetStream and a batch is delivered
// once the server stored every message of it (its publish acknowledgements); on core NATS, once the server
// answered a flush after them. A batch that fails is retried with Vector's backoff (`request.*`); `request.
// concurrency` batches are published at once (default one, as Vector's sink). Given-up events are counted as
// errors and discarded.

import { z } from 'zod';
import { createInbox, type Msg, type NatsConnection } from '@nats-io/transport-node';
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
    private readonly jetstream: JetStreamPublisher | undefined,
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
      await this.jetstream.publish(messages, timeout);
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

/**
 * Publishes to JetStream: a JetStream publish is a core publish with a reply subject, which the stream that
 * stores the message answers with its acknowledgement (`{"stream":…,"seq":…}` or `{"error":…}`), and the
 * server with a "no responders" status when no stream takes the subject. The messages of an attempt share a
 * reply subject under one inbox this subscribes to once, and the attempt counts their answers under one
 * timer: the client's `jetstream.publish` makes a request per message (an inbox entry, a timer, promises and
 * errors made up front), which cost ~35 µs of CPU a message.
 */
class JetStreamPublisher {
  private readonly inbox = createInbox();
  private attempts = 0;
  /** By the token ending a reply subject, what its attempt does with an answer. */
  private readonly waiting = new Map<string, (answer: Msg) => void>();

  constructor(private readonly connection: NatsConnection) {
    connection.subscribe(`${this.inbox}.*`, {
      callback: (_error, answer) => this.waiting.get(answer.subject.slice(this.inbox.length + 1))?.(answer),
    });
  }

  /** Publishes the messages; resolves once every one is stored, rejects at the first refused or when some are
   * not answered within `timeoutMs` (their answers are then ignored). */
  async publish(messages: Messages, timeoutMs: number): Promise<void> {
    const token = (++this.attempts).toString(36);
    const reply = `${this.inbox}.${token}`;
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        let left = messages.reduce((total, { payloads }) => total + payloads.length, 0);
        if (left === 0) return resolve();
        timer = setTimeout(
          () => reject(new Error(`${left} publishes not acknowledged within ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
        this.waiting.set(token, (answer) => {
          const failure = failureOf(answer);
          if (failure) reject(failure);
          else if (--left === 0) resolve();
        });
        for (const { destination, payloads } of messages)
          for (const payload of payloads) this.connection.publish(destination, payload, { reply });
      });
    } finally {
      clearTimeout(timer);
      this.waiting.delete(token);
    }
  }
}

/** Why a JetStream publish's answer is not an acknowledgement; undefined when it is one. */
function failureOf(answer: Msg): Error | undefined {
  if (answer.data.length === 0 && answer.headers?.code === 503)
    return new Error('no JetStream stream takes the subject (no responders)');
  let ack: { stream?: string; error?: { code?: number; err_code?: number; description?: string } };
  try {
    ack = answer.json();
  } catch {
    return new Error('invalid JetStream acknowledgement');
  }
  if (ack.error) return new Error(`JetStream refused the message: ${ack.error.description} (${ack.error.err_code})`);
  return ack.stream ? undefined : new Error('invalid JetStream acknowledgement');
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildNatsSink(options: NatsSinkOptions, env: ComponentEnv, timer = realTimer): Promise<Sink> {
  const subject = await EventTemplate.build('subject', options.subject, env, { timezone: env.globals.timezone });
  const encoder = new SinkEncoder(
    encodeOptions(options.encoding, undefined, 'message', env.globals.log_schema.message_key),
    env,
  );
  const connection = await natsConnect(options, env.log);
  const jetstream = options.jetstream.enabled ? new JetStreamPublisher(connection) : undefined;
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
