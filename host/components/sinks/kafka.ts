// The `kafka` sink: each event encoded as one record produced to `topic`, a template rendered per event, with
// the event's `key_field` as the record key (none when unset or absent), the object at `headers_key` as its
// headers, and the event's timestamp as the record's. KafkaJS picks the partition from the key (murmur2, as
// Kafka's Java client and librdkafka's `consistent_random` do for keyed records). A batch is delivered once
// the leaders acknowledged every record of it (`acks: all`); a batch that fails is retried with Vector's
// backoff, each attempt bounded by `message_timeout_ms`. Given-up events are counted as errors and
// discarded. `compression` is applied per record batch (lz4 is not available in svc's client).

import { z } from 'zod';
import type { ICustomPartitioner, Kafka, Message, Producer } from 'kafkajs';
import { BatchReader } from '../../../runtime/engine.js';
import { type RemapValue, Timestamp } from '../../../runtime/index.js';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { encodeOptions, encodingSchema, SinkEncoder } from '../support/encoding.js';
import { EventTemplate } from '../support/event-template.js';
import { eventFieldPath, isObject } from '../support/event-fields.js';
import { compressionType, kafkaClient, kafkaConnectionFields, kafkaFiles } from '../support/kafka.js';
import { answeredWithin, type DestinationMessages, MessageSink, type Messages } from '../support/message-sink.js';
import { requestFields } from '../support/request.js';
import { realTimer, type RetryTimer } from '../support/retry.js';
import type { EventBatch } from '../../topology/batch.js';
import { templateOption } from '../../config/template.js';

const options = z.strictObject({
  ...kafkaConnectionFields,
  topic: templateOption(),
  key_field: z.string().optional(),
  headers_key: z.string().optional(),
  compression: z.enum(['none', 'gzip', 'snappy', 'zstd']).default('none'),
  encoding: encodingSchema,
  // librdkafka's queue limits in Vector; svc produces the pipeline's batches as they come.
  batch: z
    .strictObject({
      max_bytes: z.number().int().positive().optional(),
      max_events: z.number().int().positive().optional(),
      timeout_secs: z.number().positive().default(1),
    })
    .prefault({}),
  message_timeout_ms: z.number().int().positive().default(300_000),
  rate_limit_duration_secs: z.number().int().positive().default(1),
  rate_limit_num: z.number().int().positive().optional(),
  healthcheck_topic: z.string().optional(),
});
type KafkaSinkOptions = z.infer<typeof options>;

interface TopicRecords extends DestinationMessages {
  records: Message[];
}

const bytesOf = (value: RemapValue | undefined): Buffer | null => {
  if (value === undefined || value === null) return null;
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (typeof value === 'string') return Buffer.from(value);
  return Buffer.from(String(value));
};

class KafkaSink extends MessageSink<TopicRecords> {
  private readonly keyPath: string[] | undefined;
  private readonly headersPath: string[] | undefined;
  private readonly timestampPath: string[] | undefined;
  private readonly producer: Producer;
  /** The producer's connection, made at the first attempt (and again after one failed to connect), so
   * that a cluster down at start-up delays delivery rather than the pipeline, as librdkafka's does. */
  private connected: Promise<void> | undefined;

  constructor(
    private readonly options: KafkaSinkOptions,
    private readonly client: Kafka,
    partitioner: ICustomPartitioner,
    topic: EventTemplate,
    encoder: SinkEncoder,
    env: ComponentEnv,
    timer: RetryTimer,
  ) {
    super(
      requestFields('none').parse({
        rate_limit_duration_secs: options.rate_limit_duration_secs,
        ...(options.rate_limit_num !== undefined && { rate_limit_num: options.rate_limit_num }),
        timeout_secs: Math.ceil(options.message_timeout_ms / 1000),
      }),
      topic,
      encoder,
      env,
      timer,
      'Producing to Kafka failed',
    );
    this.keyPath = options.key_field === undefined ? undefined : eventFieldPath(options.key_field);
    this.headersPath = options.headers_key === undefined ? undefined : eventFieldPath(options.headers_key);
    this.timestampPath = eventFieldPath(env.globals.log_schema.timestamp_key);
    this.producer = client.producer({ allowAutoTopicCreation: true, createPartitioner: partitioner });
  }

  private connect(): Promise<void> {
    this.connected ??= this.producer.connect().catch((error: Error) => {
      this.connected = undefined;
      throw new Error(`could not connect to Kafka at ${this.options.bootstrap_servers}: ${error.message}`);
    });
    return this.connected;
  }

  protected override messagesFor(topic: string, events: EventBatch): TopicRecords {
    const payloads = this.encoder.encodeEach(events);
    const reader = new BatchReader(events.bytes);
    const records: Message[] = [];
    for (const view of reader) {
      const value = payloads[view.index];
      if (value === undefined) continue;
      const record: Message = { value: Buffer.from(value.buffer, value.byteOffset, value.byteLength) };
      if (view.kind === 'log') {
        if (this.keyPath) record.key = bytesOf(reader.readPath(view.event, this.keyPath));
        const headers = this.headersPath && reader.readPath(view.event, this.headersPath);
        if (isObject(headers))
          record.headers = Object.fromEntries(
            Object.entries(headers).flatMap(([name, header]) => {
              const bytes = bytesOf(header);
              return bytes === null ? [] : [[name, bytes]];
            }),
          );
        const timestamp = this.timestampPath && reader.readPath(view.event, this.timestampPath);
        if (timestamp instanceof Timestamp) record.timestamp = String(timestamp.nanos / 1_000_000n);
      }
      records.push(record);
    }
    return { destination: topic, payloads: records.map((record) => record.value as Buffer), records };
  }

  protected async attempt(messages: Messages<TopicRecords>): Promise<void> {
    const topicMessages = messages
      .filter(({ records }) => records.length > 0)
      .map(({ destination, records }) => ({ topic: destination, messages: records }));
    if (topicMessages.length === 0) return;
    await this.connect();
    await answeredWithin(
      this.producer.sendBatch({
        topicMessages,
        acks: -1,
        timeout: this.options.message_timeout_ms,
        compression: compressionType(this.options.compression),
      }),
      this.options.message_timeout_ms,
    );
  }

  protected async disconnect(): Promise<void> {
    await this.producer.disconnect();
  }

  protected drop(): void {
    void this.producer.disconnect();
  }

  /** A broker answers the metadata of `healthcheck_topic`, or of the cluster, as Vector's check asks. */
  async healthcheck(): Promise<void> {
    const admin = this.client.admin();
    await admin.connect();
    try {
      const topic = this.options.healthcheck_topic;
      if (topic === undefined) await admin.describeCluster();
      else await admin.fetchTopicMetadata({ topics: [topic] });
    } finally {
      await admin.disconnect();
    }
  }
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildKafkaSink(options: KafkaSinkOptions, env: ComponentEnv, timer = realTimer): Promise<Sink> {
  const topic = await EventTemplate.build('topic', options.topic, env, { timezone: env.globals.timezone });
  const encoder = new SinkEncoder(
    encodeOptions(options.encoding, undefined, 'message', env.globals.log_schema.message_key),
    env,
  );
  const client = await kafkaClient(options, 'svc', env);
  const { Partitioners } = await import('kafkajs');
  return new KafkaSink(options, client, Partitioners.DefaultPartitioner, topic, encoder, env, timer);
}

const kafka: SinkDefinition<KafkaSinkOptions> = {
  kind: 'sink',
  type: 'kafka',
  description: 'Publish observability event data to Apache Kafka topics.',
  options,
  files: kafkaFiles,
  inputs: () => ['log', 'metric', 'trace'],
  build: (options, env) => buildKafkaSink(options, env),
};

export default kafka;
