// `mqtt`: events from the messages published on `topic` (one topic filter, or several), subscribed at QoS 1
// (at least once), as Vector does. Each message is decoded (`bytes` framing by default: one message, one
// event) and stamped with its topic at `topic_key`. Messages waiting in the client are decoded together, as
// one batch. A message whose packet is larger than `max_packet_size` is counted as an error and dropped.
//
// Delivery: a message is acknowledged to the broker (PUBACK) through MQTT.js's `handleMessage`. Without
// end-to-end acknowledgements, at once while fewer than MAX_WAITING messages wait for the pipeline (beyond,
// once downstream took them: the back-pressure); with them, only once the sinks settled its event, so that
// what is in flight at a crash is redelivered by the broker to a session that persists (`clean_session`
// false and a fixed `client_id`). MQTT.js hands on the next message only once the previous one was
// acknowledged: with end-to-end acknowledgements, messages go through the pipeline one at a time.

import { z } from 'zod';
import type { IPublishPacket } from 'mqtt';
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
import { mqttConnect, mqttConnectionFields, mqttFiles, publishPacketSize } from '../support/mqtt.js';
import { SourceAcknowledgements } from '../support/source-acknowledgements.js';
import { MAX_GATHERED } from '../support/waiting-messages.js';

const options = z.strictObject({
  ...mqttConnectionFields,
  topic: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).default('vector'),
  topic_key: z.string().default('topic'),
  decoding: decodingSchema,
  framing: framingSchema,
  log_namespace: logNamespaceOption,
});
type MqttSourceOptions = z.infer<typeof options>;

/** Messages acknowledged at once while waiting for the pipeline, at most. */
const MAX_WAITING = 1000;

interface Waiting {
  packet: IPublishPacket;
  /** Acknowledges the message to the broker, when not done yet. */
  ack?: () => void;
}

async function build(options: MqttSourceOptions, env: ComponentEnv): Promise<Source> {
  const origin = { sourceType: 'mqtt', logNamespace: logNamespaceOf(env, options.log_namespace) };
  const decoder = new SourceDecoder(
    env,
    decodeSettings(options.decoding, options.framing, BYTES_FRAMING, env, origin.logNamespace),
  );
  const waiting: Waiting[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const client = await mqttConnect(options, 'vectorSource', env.log, (client) => {
    client.handleMessage = (packet, callback) => {
      const size = publishPacketSize(packet.topic, packet.qos, Buffer.byteLength(packet.payload));
      if (size > options.max_packet_size) {
        env.telemetry.error('packet_too_large', 'receiving');
        env.telemetry.discarded(1, false);
        env.log.error(`MQTT message dropped: ${size} bytes, more than max_packet_size (${options.max_packet_size}).`, {
          error_type: 'packet_too_large',
          stage: 'receiving',
          internal_log_rate_key: 'packet_too_large',
        });
        callback();
        return;
      }
      const held = env.acknowledgements || waiting.length >= MAX_WAITING;
      waiting.push(held ? { packet, ack: () => callback() } : { packet });
      if (!held) callback();
      wake?.();
    };
  });
  const topics = typeof options.topic === 'string' ? [options.topic] : options.topic;
  try {
    const granted = await client.subscribeAsync(topics, { qos: 1 });
    const refused = granted.filter((grant) => grant.qos === 128);
    if (refused.length > 0) throw new Error(`the broker refused ${refused.map((grant) => grant.topic).join(', ')}`);
  } catch (error) {
    await client.endAsync(true);
    throw new Error(`mqtt: cannot subscribe to ${topics.join(', ')}: ${(error as Error).message}`);
  }
  const acknowledgements = new SourceAcknowledgements(env.acknowledgements);

  const take = async (): Promise<Waiting[] | undefined> => {
    while (waiting.length === 0) {
      if (ended) return undefined;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    return waiting.splice(0, MAX_GATHERED);
  };

  const receive = async (group: Waiting[], context: SourceContext) => {
    const stamps = new Map<string, Stamp>();
    const stampOf = (topic: string) => {
      let stamp = stamps.get(topic);
      if (stamp === undefined) {
        stamp = stampSource(sourceStamp(env, origin, ''), origin, options.topic_key, ['topic'], topic);
        stamps.set(topic, stamp);
      }
      return stamp;
    };
    const batches = decoder.decodeMessages(
      group.map(({ packet }) => ({ bytes: toBytes(packet.payload), stamp: stampOf(packet.topic) })),
    );
    // Whatever the status, the message is acknowledged: MQTT has no negative acknowledgement, and a broker
    // redelivers only to a new connection.
    await acknowledgements.send(context, batches, () => {
      for (const { ack } of group) ack?.();
    });
  };

  return {
    async run(context) {
      const stop = () => {
        ended = true;
        wake?.();
      };
      if (context.shutdown.aborted) stop();
      context.shutdown.addEventListener('abort', stop, { once: true });
      for (;;) {
        const group = await take();
        if (group === undefined) return;
        await receive(group, context);
      }
    },
    /** The acknowledgements of what was sent are answered to the broker, then the connection closes. */
    async acknowledged() {
      await acknowledgements.settled();
      await client.endAsync().catch(() => client.endAsync(true));
    },
  };
}

function toBytes(payload: Buffer | string): Uint8Array {
  return typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
}

const mqtt: SourceDefinition<MqttSourceOptions> = {
  kind: 'source',
  type: 'mqtt',
  description: 'Collect logs from MQTT.',
  options,
  files: mqttFiles,
  outputs: (options) => [{ name: undefined, kinds: decodedKinds(options.decoding) }],
  build,
};

export default mqtt;
