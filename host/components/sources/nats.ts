// `nats`: events from messages on a NATS subject (core NATS, joining `queue` when set, so several svc share
// the load; past `subscriber_capacity` waiting messages, new ones are dropped and counted), or from a durable
// JetStream pull consumer (`jetstream.stream` and `jetstream.consumer`, which must exist; processes bound to
// one consumer share its messages). Each message is decoded (`bytes` framing by default: one message, one
// event) and stamped with its subject at `subject_key_field`. Messages waiting in the client are decoded
// together, as one batch.
//
// JetStream messages are acknowledged once downstream took their events, as Vector does; with end-to-end
// acknowledgements, only once the sinks delivered them: a batch given up on is `nak`ed (redelivered) and one a
// sink rejected is terminated. While the sinks work on a message, the server is told so (`working`) every half
// `ack_wait`, so that a slow delivery is not redelivered meanwhile. An undecodable message is counted as an
// error and acknowledged, since redelivering it cannot succeed. Core NATS has no acknowledgement: what is in
// flight at a crash is lost.

import { z } from 'zod';
import type { Msg } from '@nats-io/transport-node';
import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
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
  stampSource,
  type Stamp,
} from '../support/decoding.js';
import { natsConnect, natsConnectionFields, natsFiles } from '../support/nats.js';
import { SourceAcknowledgements } from '../support/source-acknowledgements.js';
import { gather, WaitingMessages } from '../support/waiting-messages.js';

const options = z.strictObject({
  ...natsConnectionFields,
  connection_name: z.string(),
  subject: z.string().min(1),
  queue: z.string().optional(),
  subject_key_field: z.string().default('subject'),
  subscriber_capacity: z.number().int().positive().default(65536),
  jetstream: z
    .strictObject({
      stream: z.string().min(1),
      consumer: z.string().min(1),
      batch_config: z
        .strictObject({
          batch: z.number().int().positive().default(200),
          max_bytes: z.number().int().nonnegative().default(0),
        })
        .prefault({}),
    })
    .optional(),
  decoding: decodingSchema,
  framing: framingSchema,
  log_namespace: logNamespaceOption,
});
type NatsSourceOptions = z.infer<typeof options>;

/** A received message: core NATS or JetStream. */
type Received = Msg | JsMsg;

async function build(options: NatsSourceOptions, env: ComponentEnv): Promise<Source> {
  const origin = { sourceType: 'nats', logNamespace: logNamespaceOf(env, options.log_namespace) };
  const decoder = new SourceDecoder(
    env,
    decodeSettings(options.decoding, options.framing, BYTES_FRAMING, env, origin.logNamespace),
  );
  const connection = await natsConnect(options, env.log);
  const jetstream = options.jetstream;
  const consumer =
    jetstream &&
    (await (
      await import('@nats-io/jetstream')
    )
      .jetstream(connection)
      .consumers.get(jetstream.stream, jetstream.consumer)
      .catch(async (error: Error) => {
        await connection.close();
        throw new Error(
          `jetstream: cannot bind to the consumer "${jetstream.consumer}" of the stream "${jetstream.stream}": ${error.message}`,
        );
      }));
  const acknowledgements = new SourceAcknowledgements(env.acknowledgements);

  /** Decodes a group of messages, each stamped with its subject, and sends the events on. */
  const receive = async (group: Received[], context: SourceContext, settle?: (status: BatchStatus) => void) => {
    const stamps = new Map<string, Stamp>();
    const stampOf = (subject: string) => {
      let stamp = stamps.get(subject);
      if (stamp === undefined) {
        stamp = stampSource(sourceStamp(env, origin, ''), origin, options.subject_key_field, ['subject'], subject);
        stamps.set(subject, stamp);
      }
      return stamp;
    };
    const batches = decoder.decodeMessages(
      group.map((message) => ({ bytes: message.data, stamp: stampOf(message.subject) })),
    );
    await acknowledgements.send(context, batches, settle);
  };

  /** JetStream messages sent on and not settled yet. While the sinks work on them, the server is told so
   * every half `ack_wait`, so that a slow delivery is not taken for a dead consumer and redelivered. */
  const unsettled = new Set<JsMsg[]>();
  const ackWaitMs = consumer ? Number((await consumer.info(true)).config.ack_wait ?? 30e9) / 1e6 : 0;
  const inProgress =
    consumer && env.acknowledgements
      ? setInterval(() => {
          for (const group of unsettled) for (const message of group) message.working();
        }, ackWaitMs / 2).unref()
      : undefined;
  const settleAll = (group: JsMsg[]) => {
    unsettled.add(group);
    return (status: BatchStatus) => settle(group, status);
  };
  const settle = (group: JsMsg[], status: BatchStatus) => {
    unsettled.delete(group);
    for (const message of group) {
      if (status === 'delivered') message.ack();
      else if (status === 'errored') message.nak();
      else message.term();
    }
  };

  const dropped = (count: number) => {
    env.telemetry.error('subscriber_capacity_exceeded', 'receiving', count);
    env.telemetry.discarded(count, false);
    env.log.error(`NATS messages dropped: more than subscriber_capacity (${options.subscriber_capacity}) waiting.`, {
      error_type: 'subscriber_capacity_exceeded',
      stage: 'receiving',
      internal_log_rate_key: 'subscriber_capacity_exceeded',
    });
  };
  let messages: ConsumerMessages | undefined;
  // Core NATS: subscribed now, as Vector does when it builds the source, so that what is published once the
  // pipeline started reaches it; messages wait for `run` (up to `subscriber_capacity`).
  const waiting = consumer ? undefined : new WaitingMessages<Msg>(options.subscriber_capacity);
  const subscription =
    waiting &&
    connection.subscribe(options.subject, {
      ...(options.queue !== undefined && { queue: options.queue }),
      callback: (error, message) => {
        if (error) env.log.error(`NATS subscription failed: ${error.message}`);
        else if (!waiting.push(message)) dropped(1);
      },
    });
  if (subscription) {
    void subscription.closed.then(() => waiting!.end());
    await connection.flush();
  }
  return {
    async run(context) {
      if (context.shutdown.aborted) return;
      if (consumer) {
        // Taken by a callback, not the client's iterator, whose pending count includes messages a pull has
        // yet to bring: waiting for those held a partial batch until the pull expired.
        const pulled = new WaitingMessages<JsMsg>();
        messages = await consumer.consume({
          max_messages: jetstream.batch_config.batch,
          ...(jetstream.batch_config.max_bytes > 0 && { max_bytes: jetstream.batch_config.max_bytes }),
          callback: (message) => void pulled.push(message),
        });
        void messages.closed().then(() => pulled.end());
        context.shutdown.addEventListener('abort', () => void messages?.close(), { once: true });
        await gather(pulled, (group) => receive(group, context, settleAll(group)));
      } else {
        context.shutdown.addEventListener('abort', () => void subscription!.drain(), { once: true });
        await gather(waiting!, (group) => receive(group, context));
      }
    },
    /** The acknowledgements of what was sent are answered to the server, then the connection closes. */
    async acknowledged() {
      await acknowledgements.settled();
      clearInterval(inProgress);
      await connection.drain().catch(() => connection.close());
    },
  };
}

const nats: SourceDefinition<NatsSourceOptions> = {
  kind: 'source',
  type: 'nats',
  description: 'Read observability data from subjects on the NATS messaging system.',
  options,
  files: natsFiles,
  outputs: (options) => [{ name: undefined, kinds: decodedKinds(options.decoding) }],
  build,
};

export default nats;
