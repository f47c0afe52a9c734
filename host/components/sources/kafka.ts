// `kafka`: events from the records of `topics` (names, or regular expressions when they start with `^`), read
// as a member of the consumer group `group_id`: the group's members share the topics' partitions, and a
// member that leaves or dies has its partitions handed to the others. Each record is decoded (`bytes`
// framing by default: one record, one event; a record without a value is skipped, as Vector does) and
// stamped with its key, topic, partition, offset, headers and timestamp at the `*_key` fields.
//
// Offsets: a record's offset is stored once downstream took its event, or, with end-to-end acknowledgements,
// once the sinks delivered it; stored offsets are committed to the group every `commit_interval_ms` and at
// shutdown, in order per partition (an offset is committed only once every record before it was stored),
// so what was in flight at a crash is read again by the partition's next owner: at least once. A batch the
// sinks gave up on is read again (the consumer seeks back to it); one a sink rejected is not.

import { z } from 'zod';
import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
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
  type StampOrigin,
} from '../support/decoding.js';
import { kafkaClient, kafkaConnectionFields, kafkaFiles } from '../support/kafka.js';
import { SourceAcknowledgements } from '../support/source-acknowledgements.js';
import { MAX_GATHERED } from '../support/waiting-messages.js';

const options = z.strictObject({
  ...kafkaConnectionFields,
  topics: z.array(z.string().min(1)).min(1),
  group_id: z.string().min(1),
  auto_offset_reset: z.enum(['smallest', 'earliest', 'beginning', 'largest', 'latest', 'end']).default('largest'),
  session_timeout_ms: z.number().int().positive().default(10_000),
  fetch_wait_max_ms: z.number().int().positive().default(100),
  commit_interval_ms: z.number().int().positive().default(5000),
  drain_timeout_ms: z.number().int().positive().optional(),
  key_field: z.string().default('message_key'),
  topic_key: z.string().default('topic'),
  partition_key: z.string().default('partition'),
  offset_key: z.string().default('offset'),
  headers_key: z.string().default('headers'),
  decoding: decodingSchema,
  framing: framingSchema,
  log_namespace: logNamespaceOption,
});
type KafkaSourceOptions = z.infer<typeof options>;

/** A header's value (the last, when repeated); null when it has none. */
function headerBytes(value: Buffer | string | Array<Buffer | string> | undefined): Uint8Array | null {
  const last = Array.isArray(value) ? value.at(-1) : value;
  if (last === undefined) return null;
  return typeof last === 'string' ? new TextEncoder().encode(last) : new Uint8Array(last);
}

/** The stamp of one record: the source's, then the record's own fields (a timestamp replaces the read time). */
function recordStamp(
  base: () => Stamp,
  origin: StampOrigin,
  options: KafkaSourceOptions,
  timestampKey: string,
  topic: string,
  partition: number,
  message: KafkaMessage,
): Stamp {
  const stamp = base();
  const key = message.key ? new Uint8Array(message.key) : null;
  const headers = Object.fromEntries(
    Object.entries(message.headers ?? {}).map(([name, value]) => [name, headerBytes(value)]),
  );
  const timestamp = new Date(Number(message.timestamp));
  stampSource(stamp, origin, options.key_field, ['message_key'], key);
  stampSource(stamp, origin, timestampKey, ['timestamp'], timestamp);
  stampSource(stamp, origin, options.topic_key, ['topic'], topic);
  stampSource(stamp, origin, options.partition_key, ['partition'], partition);
  stampSource(stamp, origin, options.offset_key, ['offset'], Number(message.offset));
  stampSource(stamp, origin, options.headers_key, ['headers'], headers);
  return stamp;
}

/** A batch of one partition, sent on: stored once `done`. */
interface Pending {
  firstOffset: bigint;
  lastOffset: bigint;
  done: boolean;
}

/** What was read from each partition and not committed yet, in offset order. */
class PartitionOffsets {
  private readonly pending = new Map<string, { topic: string; partition: number; queue: Pending[] }>();

  private entry(topic: string, partition: number) {
    const key = `${partition}:${topic}`;
    let entry = this.pending.get(key);
    if (entry === undefined) this.pending.set(key, (entry = { topic, partition, queue: [] }));
    return entry;
  }

  add(topic: string, partition: number, firstOffset: bigint, lastOffset: bigint): Pending {
    const pending = { firstOffset, lastOffset, done: false };
    this.entry(topic, partition).queue.push(pending);
    return pending;
  }

  /** Forgets what was read from `firstOffset` on (it is read again). */
  rewind(topic: string, partition: number, firstOffset: bigint): void {
    const entry = this.entry(topic, partition);
    entry.queue = entry.queue.filter((pending) => pending.firstOffset < firstOffset);
  }

  /** The offsets to commit: per partition, the one after the last record of the stored prefix. */
  take(): Array<{ topic: string; partition: number; offset: string }> {
    const commits = [];
    for (const entry of this.pending.values()) {
      let next: bigint | undefined;
      while (entry.queue[0]?.done) next = entry.queue.shift()!.lastOffset + 1n;
      if (next !== undefined) commits.push({ topic: entry.topic, partition: entry.partition, offset: String(next) });
    }
    return commits;
  }
}

async function build(options: KafkaSourceOptions, env: ComponentEnv): Promise<Source> {
  const origin = { sourceType: 'kafka', logNamespace: logNamespaceOf(env, options.log_namespace) };
  const decoder = new SourceDecoder(
    env,
    decodeSettings(options.decoding, options.framing, BYTES_FRAMING, env, origin.logNamespace),
  );
  const client = await kafkaClient(options, 'svc', env);
  const consumer: Consumer = client.consumer({
    groupId: options.group_id,
    sessionTimeout: options.session_timeout_ms,
    // librdkafka's default (3 s), below the session timeout as the group protocol needs.
    heartbeatInterval: Math.min(3000, Math.floor(options.session_timeout_ms / 3)),
    maxWaitTimeInMs: options.fetch_wait_max_ms,
    allowAutoTopicCreation: false,
  });
  const acknowledgements = new SourceAcknowledgements(env.acknowledgements);
  const offsets = new PartitionOffsets();
  const timestampKey = env.globals.log_schema.timestamp_key;
  // Vector's kafka source stamps no host, in either namespace.
  const baseStamp = () => sourceStamp(env, origin, null);

  const commit = async () => {
    const commits = offsets.take();
    if (commits.length === 0) return;
    // A commit refused (the group rebalanced meanwhile) only means the partition's next owner reads those
    // records again.
    await consumer
      .commitOffsets(commits)
      .catch((error: Error) => env.log.warn(`Kafka commit failed: ${error.message}`));
  };

  /** Sends on the records of a fetched batch, MAX_GATHERED at a time, heartbeating between (a member
   * silent for the session timeout loses its partitions); stops when a rebalance or seek made the batch stale. */
  const receive = async (payload: EachBatchPayload, context: SourceContext) => {
    const { batch } = payload;
    for (let start = 0; start < batch.messages.length; start += MAX_GATHERED) {
      if (!payload.isRunning() || payload.isStale()) return;
      const chunk = batch.messages.slice(start, start + MAX_GATHERED);
      const firstOffset = BigInt(chunk[0]!.offset);
      const lastOffset = chunk.at(-1)!.offset;
      const pending = offsets.add(batch.topic, batch.partition, firstOffset, BigInt(lastOffset));
      const messages = chunk.filter((message) => message.value !== null);
      const decoded = decoder.decodeMessages(
        messages.map((message) => ({
          bytes: message.value!,
          stamp: recordStamp(baseStamp, origin, options, timestampKey, batch.topic, batch.partition, message),
        })),
      );
      await acknowledgements.send(context, decoded, (status: BatchStatus) => {
        if (status !== 'errored') pending.done = true;
        else {
          offsets.rewind(batch.topic, batch.partition, firstOffset);
          consumer.seek({ topic: batch.topic, partition: batch.partition, offset: String(firstOffset) });
        }
      });
      // The fetch position moves past what was sent on (commits follow the acknowledgements).
      payload.resolveOffset(lastOffset);
      await payload.heartbeat();
    }
  };

  return {
    async run(context) {
      if (context.shutdown.aborted) return;
      const topics = options.topics.map((topic) => (topic.startsWith('^') ? new RegExp(topic) : topic));
      const fromBeginning = ['smallest', 'earliest', 'beginning'].includes(options.auto_offset_reset);
      const committing = setInterval(() => void commit(), options.commit_interval_ms);
      try {
        await consumer.connect();
        await consumer.subscribe({ topics, fromBeginning });
        await new Promise<void>((resolve, reject) => {
          context.shutdown.addEventListener('abort', () => resolve(), { once: true });
          consumer.run({ autoCommit: false, eachBatch: (payload) => receive(payload, context) }).catch(reject);
        });
        // Nothing more is fetched; what was read goes on.
        await consumer.stop();
      } catch (error) {
        throw new Error(`could not consume from Kafka at ${options.bootstrap_servers}: ${(error as Error).message}`);
      } finally {
        clearInterval(committing);
      }
    },
    /** The offsets of what was delivered within `drain_timeout_ms` (Vector's default: half the session
     * timeout) are committed, then the consumer leaves the group. */
    async acknowledged() {
      const drainMs = options.drain_timeout_ms ?? options.session_timeout_ms / 2;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        acknowledgements.settled(),
        new Promise((resolve) => (timer = setTimeout(resolve, drainMs))),
      ]).finally(() => clearTimeout(timer));
      await commit();
      await consumer.disconnect();
    },
  };
}

const kafka: SourceDefinition<KafkaSourceOptions> = {
  kind: 'source',
  type: 'kafka',
  description: 'Collect logs from Apache Kafka.',
  options,
  files: kafkaFiles,
  outputs: (options) => [{ name: undefined, kinds: decodedKinds(options.decoding) }],
  build,
};

export default kafka;
