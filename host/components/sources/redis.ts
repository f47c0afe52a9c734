// `redis`: events from a Redis key. `data_type: list` pops the list's elements (`list.method`: `lpop` or
// `rpop`, blocking pops as Vector does); `channel` subscribes to the channel (Pub/Sub: what is published
// while no one listens is lost). Each element or message is decoded (`bytes` framing by default) and, with
// `redis_key` set, stamped with the key at that field.
//
// svc's at-least-once mode: `data_type: stream` reads a Redis Stream as a member of a consumer group
// (`stream.group`, created at the stream's start when missing, and `stream.consumer`): processes sharing a
// group share the entries. An entry is acknowledged (XACK) once downstream took its events; with end-to-end
// acknowledgements, only once the sinks delivered them: a batch the sinks gave up on stays pending and is
// read again. On start the consumer first reads its own pending entries (those of a previous run under the
// same name), and every `stream.claim_idle_ms / 2` it claims entries pending longer than
// `stream.claim_idle_ms` at any consumer (XAUTOCLAIM): a dead consumer's entries are taken over. While the
// sinks work on entries, their idle time is reset so that they are not claimed meanwhile.

import { z } from 'zod';
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
} from '../support/decoding.js';
import { type RedisClient, redisClose, redisConnect, STREAM_FIELD } from '../support/redis.js';
import { SourceAcknowledgements } from '../support/source-acknowledgements.js';

const options = z.strictObject({
  url: z.string().min(1),
  key: z.string().min(1),
  data_type: z.enum(['list', 'channel', 'stream']).default('list'),
  list: z.strictObject({ method: z.enum(['lpop', 'rpop']).default('lpop') }).prefault({}),
  stream: z
    .strictObject({
      group: z.string().min(1).default('svc'),
      consumer: z.string().min(1).optional(),
      claim_idle_ms: z.number().int().positive().default(30_000),
      count: z.number().int().positive().default(200),
    })
    .prefault({}),
  redis_key: z.string().optional(),
  decoding: decodingSchema,
  framing: framingSchema,
  log_namespace: logNamespaceOption,
});
type RedisSourceOptions = z.infer<typeof options>;

/** How long a blocking read waits before the loop looks at the shutdown again. */
const BLOCK_MS = 500;
/** Elements taken at most from a list at once. */
const LIST_COUNT = 200;

/** An entry of a stream: its id and the bytes of its message. */
interface Entry {
  id: string;
  data: Uint8Array;
}

/** Entries of a raw XREADGROUP / XAUTOCLAIM reply's entry list, read as bytes (deleted ones, null, skipped). */
function entriesOf(raw: unknown): Entry[] {
  const entries: Entry[] = [];
  for (const item of (raw as Array<[Buffer, Buffer[]] | null>) ?? []) {
    if (!item) continue;
    const [id, fields] = item;
    if (!fields) continue;
    let value: Buffer | undefined;
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i]!.toString() === STREAM_FIELD) value = fields[i + 1];
    entries.push({ id: id.toString(), data: value ?? Buffer.alloc(0) });
  }
  return entries;
}

async function build(options: RedisSourceOptions, env: ComponentEnv): Promise<Source> {
  const origin = { sourceType: 'redis', logNamespace: logNamespaceOf(env, options.log_namespace) };
  const decoder = new SourceDecoder(
    env,
    decodeSettings(options.decoding, options.framing, BYTES_FRAMING, env, origin.logNamespace),
  );
  const stamp =
    options.redis_key === undefined
      ? sourceStamp(env, origin, '')
      : stampSource(sourceStamp(env, origin, ''), origin, options.redis_key, ['key'], options.key);
  // Replies read as bytes, not strings: an event's encoding may be binary (`native`, `protobuf`).
  const asBytes = { typeMapping: { [(await import('redis')).RESP_TYPES.BLOB_STRING]: Buffer } };
  const client = await redisConnect(options.url, env.log);
  // Blocking reads and subscriptions hold their connection: they get one of their own.
  let reader: RedisClient;
  try {
    reader = client.duplicate();
    reader.on('error', () => {});
    await reader.connect();
  } catch (error) {
    await redisClose(client);
    throw new Error(`could not connect to Redis at ${options.url}: ${(error as Error).message}`);
  }
  const group = options.stream.group;
  const consumer = options.stream.consumer ?? `${env.hostname}-${env.id}`;
  /** Creates the group (and the stream) unless it exists. */
  const createGroup = async () => {
    try {
      await client.sendCommand(['XGROUP', 'CREATE', options.key, group, '0', 'MKSTREAM']);
    } catch (error) {
      if (!/BUSYGROUP/.test((error as Error).message)) throw error;
    }
  };
  if (options.data_type === 'stream') {
    try {
      await createGroup();
    } catch (error) {
      await Promise.all([redisClose(client), redisClose(reader)]);
      throw new Error(`stream: cannot create the group "${group}" of "${options.key}": ${(error as Error).message}`);
    }
  }
  const acknowledgements = new SourceAcknowledgements(env.acknowledgements);
  /** Entries sent on and not settled yet (their idle time is reset while the sinks work). */
  const unsettled = new Set<string[]>();

  const settle = async (ids: string[], status: BatchStatus) => {
    unsettled.delete(ids);
    // Errored: left pending, read again (by this consumer on restart, by another once idle long enough).
    if (status === 'errored' || ids.length === 0) return;
    try {
      await client.sendCommand(['XACK', options.key, group, ...ids]);
    } catch (error) {
      env.log.warn(`Acknowledging Redis stream entries failed: ${(error as Error).message}`);
    }
  };

  /** Decodes the payloads and sends the events on; `ids`: the stream entries to acknowledge. */
  const receive = async (payloads: Uint8Array[], context: SourceContext, ids?: string[]) => {
    const batches = decoder.decodeMessages(payloads.map((bytes) => ({ bytes, stamp })));
    if (ids !== undefined) unsettled.add(ids);
    await acknowledgements.send(context, batches, ids && ((status) => settle(ids, status)));
  };

  const readStream = async (context: SourceContext) => {
    const idle = options.stream.claim_idle_ms;
    const count = String(options.stream.count);
    const take = async (entries: Entry[]) => {
      if (entries.length > 0)
        await receive(
          entries.map((entry) => entry.data),
          context,
          entries.map((entry) => entry.id),
        );
    };
    // Own pending entries first: a previous run under this name left them unacknowledged.
    for (let after = '0'; !context.shutdown.aborted; ) {
      const reply = (await reader.sendCommand(
        ['XREADGROUP', 'GROUP', group, consumer, 'COUNT', count, 'STREAMS', options.key, after],
        asBytes,
      )) as Array<[Buffer, unknown]> | null;
      const entries = entriesOf(reply?.[0]?.[1]);
      if (entries.length === 0) break;
      after = entries[entries.length - 1]!.id;
      await take(entries);
    }
    let lastClaim = 0;
    while (!context.shutdown.aborted) {
      try {
        if (Date.now() - lastClaim >= idle / 2) {
          lastClaim = Date.now();
          // Still being delivered here: not to be claimed by another consumer.
          const working = [...unsettled].flat();
          if (working.length > 0)
            await client
              .sendCommand(['XCLAIM', options.key, group, consumer, '0', ...working, 'JUSTID'])
              .catch(() => {});
          for (let start = '0-0'; ; ) {
            const [next, claimed] = (await client.sendCommand(
              ['XAUTOCLAIM', options.key, group, consumer, String(idle), start, 'COUNT', count],
              asBytes,
            )) as [Buffer, unknown];
            await take(entriesOf(claimed));
            if (next.toString() === '0-0' || context.shutdown.aborted) break;
            start = next.toString();
          }
        }
        const reply = (await reader.sendCommand(
          [
            'XREADGROUP',
            'GROUP',
            group,
            consumer,
            'COUNT',
            count,
            'BLOCK',
            String(Math.min(BLOCK_MS, idle / 2)),
            'STREAMS',
            options.key,
            '>',
          ],
          asBytes,
        )) as Array<[Buffer, unknown]> | null;
        await take(entriesOf(reply?.[0]?.[1]));
      } catch (error) {
        // The stream or its group is gone (deleted, or a server restarted without persistence): made again.
        // (NOGROUP; UNBLOCKED: deleted while a read waited on it.)
        if (!/NOGROUP|UNBLOCKED/.test((error as Error).message)) throw error;
        env.log.warn(`The group "${group}" of the Redis stream "${options.key}" is missing: creating it.`);
        await createGroup();
      }
    }
  };

  const readList = async (context: SourceContext) => {
    const direction = options.list.method === 'lpop' ? 'LEFT' : 'RIGHT';
    while (!context.shutdown.aborted) {
      // BLMPOP: blocks until the list has elements, then takes up to LIST_COUNT of them from one end.
      const reply = (await reader.sendCommand(
        ['BLMPOP', String(BLOCK_MS / 1000), '1', options.key, direction, 'COUNT', String(LIST_COUNT)],
        asBytes,
      )) as [Buffer, Buffer[]] | null;
      if (reply) await receive(reply[1], context);
    }
  };

  // A channel is subscribed now, as the source is built: what is published once the pipeline started
  // reaches it. Messages wait for `run`.
  const waiting: Uint8Array[] = [];
  let wake: (() => void) | undefined;
  if (options.data_type === 'channel')
    await reader.subscribe(
      options.key,
      (message) => {
        waiting.push(message);
        wake?.();
      },
      true,
    );
  const readChannel = async (context: SourceContext) => {
    const stop = () => wake?.();
    context.shutdown.addEventListener('abort', stop, { once: true });
    while (!context.shutdown.aborted) {
      if (waiting.length === 0) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      await receive(waiting.splice(0), context);
    }
  };

  return {
    async run(context) {
      try {
        if (options.data_type === 'stream') await readStream(context);
        else if (options.data_type === 'list') await readList(context);
        else await readChannel(context);
      } catch (error) {
        if (!context.shutdown.aborted) throw error;
      }
    },
    /** The acknowledgements of what was sent are answered to the server, then the connections close. */
    async acknowledged() {
      await acknowledgements.settled();
      await Promise.all([redisClose(reader), redisClose(client)]);
    },
  };
}

const redis: SourceDefinition<RedisSourceOptions> = {
  kind: 'source',
  type: 'redis',
  description: 'Collect observability data from Redis.',
  options,
  outputs: (options) => [{ name: undefined, kinds: decodedKinds(options.decoding) }],
  build,
};

export default redis;
