// The `mqtt` sink: each event encoded as one message published on `topic`, a template rendered per event
// (`{{ host }}`, strftime), at `quality_of_service` (at least once by default), `retain`ed when asked. A
// batch is delivered once the broker acknowledged each of its messages (QoS 1: PUBACK; 2: PUBCOMP; 0: once
// written). While the broker is unreachable MQTT.js keeps the messages and sends them again once it
// reconnected (it retries every second), so a batch waits for the broker rather than failing, as Vector's
// client does; a write waits while MAX_BATCHES_IN_FLIGHT batches are unacknowledged. Events that fail to
// encode, whose topic does not render or whose packet is larger than `max_packet_size` are counted as errors
// and dropped.

import { z } from 'zod';
import type { MqttClient } from 'mqtt';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { releaseBytes, type EventBatch } from '../../topology/batch.js';
import { encodeOptions, encodingSchema, SinkEncoder } from '../support/encoding.js';
import { EventTemplate } from '../support/event-template.js';
import { mqttConnect, mqttConnectionFields, mqttFiles, publishPacketSize } from '../support/mqtt.js';
import { templateOption } from '../../config/template.js';

const QOS = { atmostonce: 0, atleastonce: 1, exactlyonce: 2 } as const;

const options = z.strictObject({
  ...mqttConnectionFields,
  topic: templateOption(),
  quality_of_service: z.enum(['atmostonce', 'atleastonce', 'exactlyonce']).default('atleastonce'),
  retain: z.boolean().default(false),
  encoding: encodingSchema,
});
type MqttSinkOptions = z.infer<typeof options>;

/** Batches published and not yet acknowledged, at most (Vector's client holds 100 messages in flight and 10
 * requests queued; as many batches as the transforms keep in flight here). */
export const MAX_BATCHES_IN_FLIGHT = 4;

class MqttSink implements Sink {
  /** Events written and neither delivered nor given up on yet. */
  private pending = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private killed = false;

  constructor(
    private readonly options: MqttSinkOptions,
    private readonly client: MqttClient,
    private readonly topic: EventTemplate,
    private readonly encoder: SinkEncoder,
    private readonly env: ComponentEnv,
  ) {}

  async write(batch: EventBatch): Promise<void> {
    // Backpressure: the client would take every message written, however slow the broker.
    while (this.inFlight.size >= MAX_BATCHES_IN_FLIGHT) await Promise.race(this.inFlight);
    // Encoded now: the batch's bytes may be freed once written.
    const qos = QOS[this.options.quality_of_service];
    const all = [...this.topic.group(batch, this.env)].flatMap(([topic, events]) =>
      // An event that failed to encode (counted by the encoder) has no message.
      this.encoder
        .encodeEach(events)
        .filter((payload) => payload !== undefined)
        .map((payload) => ({ topic, payload })),
    );
    releaseBytes(batch);
    const max = this.options.max_packet_size;
    const messages = all.filter(({ topic, payload }) => publishPacketSize(topic, qos, payload.byteLength) <= max);
    if (messages.length < all.length) {
      const dropped = all.length - messages.length;
      this.env.telemetry.error('packet_too_large', 'processing');
      this.env.telemetry.discarded(dropped, false);
      this.env.log.error(`${dropped} events dropped: their MQTT packet is larger than max_packet_size (${max}).`, {
        error_type: 'packet_too_large',
        stage: 'processing',
        internal_log_rate_key: 'packet_too_large',
      });
    }
    this.pending += messages.length;
    const publishing = Promise.all(
      messages.map(({ topic, payload }) =>
        this.client.publishAsync(topic, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength), {
          qos,
          retain: this.options.retain,
        }),
      ),
    ).then(
      () => {
        this.pending -= messages.length;
        this.env.telemetry.sentRaw(messages.reduce((total, { payload }) => total + payload.byteLength, 0));
        batch.finalizer?.release();
      },
      (error: Error) => {
        this.pending -= messages.length;
        if (this.killed) return;
        this.env.telemetry.error('request_failed', 'sending');
        this.env.telemetry.discarded(messages.length, false);
        this.env.log.error(`Publishing to MQTT failed: ${error.message}.`, {
          error_type: 'request_failed',
          stage: 'sending',
          internal_log_rate_key: 'request_failed',
        });
        batch.finalizer?.release('errored');
      },
    );
    this.inFlight.add(publishing);
    void publishing.then(() => this.inFlight.delete(publishing));
  }

  async close(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    await this.client.endAsync();
  }

  kill(): number {
    this.killed = true;
    this.client.end(true);
    return this.pending;
  }

  async healthcheck(): Promise<void> {
    if (!this.client.connected) throw new Error('not connected to the MQTT broker');
  }
}

const mqtt: SinkDefinition<MqttSinkOptions> = {
  kind: 'sink',
  type: 'mqtt',
  description: 'Deliver observability event data to an MQTT broker.',
  options,
  files: mqttFiles,
  inputs: () => ['log', 'metric', 'trace'],
  async build(options, env) {
    const topic = await EventTemplate.build('topic', options.topic, env, { timezone: env.globals.timezone });
    const encoder = new SinkEncoder(
      encodeOptions(options.encoding, undefined, 'message', env.globals.log_schema.message_key),
      env,
    );
    const client = await mqttConnect(options, 'vectorSink', env.log);
    return new MqttSink(options, client, topic, encoder, env);
  },
};

export default mqtt;
