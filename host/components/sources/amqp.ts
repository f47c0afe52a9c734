// `amqp`: events from the messages of a RabbitMQ (AMQP 0.9.1) queue, `queue`, consumed as `consumer`, at most
// `prefetch_count` unacknowledged at once when set (else the broker's default: no limit), as Vector does. Each
// message is decoded (`bytes` framing by default: one message, one event) and stamped with Vector's fields:
// its routing key at `routing_key_field`, its exchange at `exchange_key`, its delivery tag at `offset_key`
// and its `timestamp` property (read as milliseconds, as Vector does; else the time it came). Messages
// waiting in the client are decoded together, as one batch.
//
// Delivery: a message is acknowledged once downstream took its events; with end-to-end acknowledgements, only
// once the sinks delivered them. A batch given up on is rejected with requeue (the broker delivers it again)
// and one a sink rejected is rejected for good (dead-lettered when the queue says so). Until acknowledged a
// message stays with the broker: what is in flight when svc stops or dies is delivered again, to it or to
// another consumer of the queue. A lost connection is opened again (Vector's backoff, 1 s up to 30 s) and
// the queue consumed again; the answers due on the lost one are dropped, since the broker requeued those
// messages. The queue must exist: the source declares nothing.

import { z } from 'zod';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { BatchStatus } from '../../topology/batch.js';
import type { ComponentEnv, Source, SourceContext, SourceDefinition } from '../component.js';
import {
  BYTES_FRAMING,
  decodedKinds,
  decodeSettings,
  decodingSchema,
  framingSchema,
  logNamespaceOf,
  logNamespaceOption,
  SourceDecoder,
  sourceStamp,
  stampAt,
  stampSource,
  type Stamp,
} from '../support/decoding.js';
import { amqpBroker, amqpClose, amqpConnect, amqpConnectionFields, amqpFiles } from '../support/amqp.js';
import { FibonacciBackoff } from '../support/retry.js';
import { SourceAcknowledgements } from '../support/source-acknowledgements.js';
import { gather, WaitingMessages } from '../support/waiting-messages.js';

const options = z.strictObject({
  ...amqpConnectionFields,
  queue: z.string().default('vector'),
  consumer: z.string().default('vector'),
  routing_key_field: z.string().default('routing'),
  exchange_key: z.string().default('exchange'),
  offset_key: z.string().default('offset'),
  prefetch_count: z.number().int().min(0).max(65535).optional(),
  decoding: decodingSchema,
  framing: framingSchema,
  log_namespace: logNamespaceOption,
});
type AmqpSourceOptions = z.infer<typeof options>;

/** Waits between attempts to connect again: Vector's backoff, 1 s growing to 30 s. */
const RECONNECT_INITIAL_MS = 1000;
const RECONNECT_MAX_MS = 30_000;

/** A delivery with the channel that brought it: only that channel can answer it. */
interface Delivery {
  message: ConsumeMessage;
  session: Session;
}

/** Answers `delivery` on `channel`, with `multiple` every delivery before it not answered yet too. */
type Answer = (channel: Channel, delivery: ConsumeMessage, status: BatchStatus, multiple: boolean) => void;

/** One connection and its consuming channel; `open` until either closes. */
class Session {
  open = true;
  readonly answers: Answers;

  constructor(
    readonly connection: ChannelModel,
    readonly channel: Channel,
    answer: Answer,
  ) {
    this.answers = new Answers(this, answer);
  }
}

/**
 * The answers due on a channel, a part (a group's deliveries on it, in order) at a time. The first part not
 * answered yet is answered with one frame, `multiple` set and naming its last delivery; a part settled while
 * one before it is not is answered delivery by delivery at once (waiting would hold the broker's prefetch
 * window). An answer per message was a socket write per message (amqplib writes each frame on its own): half
 * the source's time.
 */
export class Answers {
  private readonly parts: Array<{ deliveries: ConsumeMessage[]; answered: boolean }> = [];

  constructor(
    private readonly session: Pick<Session, 'open' | 'channel'>,
    private readonly answer: Answer,
  ) {}

  /** A part of these deliveries; returns what settles it. */
  add(deliveries: ConsumeMessage[]): (status: BatchStatus) => void {
    const part = { deliveries, answered: false };
    this.parts.push(part);
    return (status) => {
      const first = this.parts[0] === part;
      // A closed channel's deliveries were requeued by the broker: there is no one to answer.
      if (this.session.open) {
        if (first) this.answer(this.session.channel, deliveries.at(-1)!, status, true);
        else for (const delivery of deliveries) this.answer(this.session.channel, delivery, status, false);
      }
      part.answered = true;
      while (this.parts[0]?.answered) this.parts.shift();
    };
  }
}

/** The queue's consumer, connected again whenever its connection or channel is lost. */
class QueueConsumer {
  private session: Session | undefined;
  private stopped = false;
  private reconnecting: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: AmqpSourceOptions,
    private readonly env: ComponentEnv,
    private readonly deliver: (delivery: Delivery) => void,
    private readonly answer: Answer,
  ) {}

  /** Connects and consumes; rejects, naming the broker or the queue, when it cannot. */
  async start(): Promise<void> {
    const connection = await amqpConnect(this.options, this.env.log);
    try {
      const channel = await connection.createChannel();
      const session = new Session(connection, channel, this.answer);
      // A channel error (the queue deleted) or a lost connection: both close the channel.
      channel.on('error', (error: Error) => this.env.log.warn(`AMQP channel: ${error.message}`));
      channel.on('close', () => this.lost(session));
      if (this.options.prefetch_count !== undefined) await channel.prefetch(this.options.prefetch_count, false);
      await channel.consume(
        this.options.queue,
        // null: the broker cancelled the consumer (the queue was deleted): consume again once it is back.
        (message) => (message === null ? this.lost(session) : this.deliver({ message, session })),
        { consumerTag: this.options.consumer, noAck: false },
      );
      this.session = session;
    } catch (error) {
      await amqpClose(connection);
      throw new Error(`cannot consume the queue "${this.options.queue}": ${(error as Error).message}`);
    }
  }

  private lost(session: Session): void {
    session.open = false;
    void amqpClose(session.connection);
    if (this.stopped || this.session !== session) return;
    this.session = undefined;
    this.env.telemetry.error('request_failed', 'receiving');
    this.env.log.error(
      `Lost the AMQP consumer of "${this.options.queue}" at ${amqpBroker(this.options.connection_string)}; connecting again.`,
      {
        error_type: 'request_failed',
        stage: 'receiving',
        internal_log_rate_key: 'request_failed',
      },
    );
    this.reconnect(new FibonacciBackoff(RECONNECT_INITIAL_MS, RECONNECT_MAX_MS, 'None', Math.random));
  }

  private reconnect(backoff: FibonacciBackoff): void {
    this.reconnecting = setTimeout(() => {
      this.reconnecting = undefined;
      if (this.stopped) return;
      this.start().then(
        () => this.env.log.info(`Consuming "${this.options.queue}" again.`),
        (error: Error) => {
          this.env.log.warn(`AMQP: ${error.message}`);
          this.reconnect(backoff);
        },
      );
    }, backoff.next());
  }

  /** Stops deliveries; what was delivered and not answered goes back to the queue once the connection closes. */
  async cancel(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnecting);
    if (this.session?.open) await this.session.channel.cancel(this.options.consumer).catch(() => {});
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnecting);
    const session = this.session;
    this.session = undefined;
    if (session === undefined) return;
    // The channel first: its close is answered once the broker took the answers sent on it, which closing
    // the connection at once may overtake.
    if (session.open) await session.channel.close().catch(() => {});
    await amqpClose(session.connection);
  }
}

async function build(options: AmqpSourceOptions, env: ComponentEnv): Promise<Source> {
  const origin = { sourceType: 'amqp', logNamespace: logNamespaceOf(env, options.log_namespace) };
  const decoder = new SourceDecoder(
    env,
    decodeSettings(options.decoding, options.framing, BYTES_FRAMING, env, origin.logNamespace),
  );
  // Unbounded here: `prefetch_count` bounds what the broker hands out unacknowledged.
  const waiting = new WaitingMessages<Delivery>();
  const answer: Answer = (channel, delivery, status, multiple) => {
    try {
      if (status === 'delivered') channel.ack(delivery, multiple);
      else channel.nack(delivery, multiple, status === 'errored');
    } catch (error) {
      env.telemetry.error('acknowledgment_failed', 'receiving');
      env.log.error(`Unable to answer an AMQP delivery: ${(error as Error).message}`, {
        error_type: 'acknowledgment_failed',
        stage: 'receiving',
        internal_log_rate_key: 'acknowledgment_failed',
      });
    }
  };
  const consumer = new QueueConsumer(options, env, (delivery) => void waiting.push(delivery), answer);
  await consumer.start();
  const acknowledgements = new SourceAcknowledgements(env.acknowledgements);

  /** Vector's fields of a message's events. */
  const stampOf = ({ fields, properties }: ConsumeMessage): Stamp => {
    let stamp = sourceStamp(env, origin, null);
    stamp = stampSource(stamp, origin, options.routing_key_field, ['routing'], fields.routingKey);
    stamp = stampSource(stamp, origin, options.exchange_key, ['exchange'], fields.exchange);
    stamp = stampSource(stamp, origin, options.offset_key, ['offset'], fields.deliveryTag);
    if (typeof properties.timestamp === 'number') {
      const sent = new Date(properties.timestamp);
      stamp =
        origin.logNamespace === 'legacy'
          ? stampAt(stamp, env.globals.log_schema.timestamp_key, sent)
          : stampSource(stamp, origin, undefined, ['timestamp'], sent);
    }
    return stamp;
  };

  /** What settles a group: a part per channel its deliveries came on (several only across a reconnection). */
  const settlerOf = (group: Delivery[]) => {
    const parts: Array<(status: BatchStatus) => void> = [];
    for (let start = 0, end = 1; start < group.length; start = end, end = start + 1) {
      const session = group[start]!.session;
      while (end < group.length && group[end]!.session === session) end++;
      parts.push(session.answers.add(group.slice(start, end).map(({ message }) => message)));
    }
    return (status: BatchStatus) => {
      for (const settle of parts) settle(status);
    };
  };

  const receive = async (group: Delivery[], context: SourceContext) => {
    const batches = decoder.decodeMessages(
      group.map(({ message }) => ({ bytes: message.content, stamp: stampOf(message) })),
    );
    await acknowledgements.send(context, batches, settlerOf(group));
  };

  return {
    async run(context) {
      const stop = () => {
        waiting.end();
        void consumer.cancel();
      };
      if (context.shutdown.aborted) stop();
      context.shutdown.addEventListener('abort', stop, { once: true });
      await gather(waiting, (group) => receive(group, context));
    },
    /** The acknowledgements of what was sent are answered to the broker, then the connection closes. */
    async acknowledged() {
      await acknowledgements.settled();
      await consumer.close();
    },
  };
}

const amqp: SourceDefinition<AmqpSourceOptions> = {
  kind: 'source',
  type: 'amqp',
  description: 'Collect events from AMQP 0.9.1 compatible brokers like RabbitMQ.',
  options,
  files: amqpFiles,
  outputs: (options) => [{ name: undefined, kinds: decodedKinds(options.decoding) }],
  build,
};

export default amqp;
