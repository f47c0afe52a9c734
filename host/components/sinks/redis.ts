// The `redis` sink: each event encoded and written to `key`, a template rendered per event. `data_type:
// list` pushes onto the list (`list_option.method`: `lpush` or `rpush`), `channel` publishes on the channel.
// svc's at-least-once mode, `data_type: stream`, appends each event as one entry of the stream (XADD, the
// encoded event in its `message` field), read back by the `redis` source's consumer groups. A batch is
// delivered once the server answered every command of it. A batch that fails is retried with Vector's
// backoff (`request.*`); `request.concurrency` batches are written at once. Given-up events are counted as
// errors and discarded.

import { z } from 'zod';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { encodeOptions, encodingSchema, SinkEncoder } from '../support/encoding.js';
import { EventTemplate } from '../support/event-template.js';
import { type RedisClient, redisClose, redisConnect, STREAM_FIELD } from '../support/redis.js';
import { answeredWithin, MessageSink, type Messages } from '../support/message-sink.js';
import { requestFields } from '../support/request.js';
import { realTimer, type RetryTimer } from '../support/retry.js';
import { templateOption } from '../../config/template.js';

const options = z.strictObject({
  endpoint: z.string().min(1),
  key: templateOption(),
  data_type: z.enum(['list', 'channel', 'stream']).default('list'),
  list_option: z.strictObject({ method: z.enum(['lpush', 'rpush']).default('rpush') }).prefault({}),
  encoding: encodingSchema,
  // Vector's batch of the redis sink: a list push carries at most `max_events` elements (and `max_bytes`
  // of them when set). svc writes the pipeline's batches as they come: `timeout_secs` adds no wait.
  batch: z
    .strictObject({
      max_bytes: z.number().int().positive().optional(),
      max_events: z.number().int().positive().default(1),
      timeout_secs: z.number().positive().default(1),
    })
    .prefault({}),
  request: requestFields('none').prefault({}),
});
type RedisSinkOptions = z.infer<typeof options>;

class RedisSink extends MessageSink {
  constructor(
    private readonly options: RedisSinkOptions,
    private readonly client: RedisClient,
    key: EventTemplate,
    encoder: SinkEncoder,
    env: ComponentEnv,
    timer: RetryTimer,
  ) {
    super(options.request, key, encoder, env, timer, 'Writing to Redis failed');
  }

  protected async attempt(messages: Messages): Promise<void> {
    const commands: Array<Promise<unknown>> = [];
    for (const { destination: key, payloads: encoded } of messages) {
      const payloads = encoded.map((payload) => Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength));
      if (payloads.length === 0) continue;
      if (this.options.data_type === 'list') {
        const push = this.options.list_option.method === 'lpush' ? 'LPUSH' : 'RPUSH';
        for (const chunk of chunks(payloads, this.options.batch.max_events, this.options.batch.max_bytes))
          commands.push(this.client.sendCommand([push, key, ...chunk]));
      } else if (this.options.data_type === 'channel') {
        for (const payload of payloads) commands.push(this.client.sendCommand(['PUBLISH', key, payload]));
      } else {
        for (const payload of payloads)
          commands.push(this.client.sendCommand(['XADD', key, '*', STREAM_FIELD, payload]));
      }
    }
    await answeredWithin(Promise.all(commands), this.options.request.timeout_secs * 1000);
  }

  protected async disconnect(): Promise<void> {
    await redisClose(this.client);
  }

  protected drop(): void {
    this.client.destroy();
  }

  async healthcheck(): Promise<void> {
    await this.client.ping();
  }
}

/** `payloads` in order, in chunks of at most `maxEvents` and (but for a single larger one) `maxBytes`. */
function* chunks(payloads: Buffer[], maxEvents: number, maxBytes = Number.POSITIVE_INFINITY): Generator<Buffer[]> {
  let chunk: Buffer[] = [];
  let bytes = 0;
  for (const payload of payloads) {
    if (chunk.length > 0 && (chunk.length >= maxEvents || bytes + payload.byteLength > maxBytes)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(payload);
    bytes += payload.byteLength;
  }
  if (chunk.length > 0) yield chunk;
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildRedisSink(options: RedisSinkOptions, env: ComponentEnv, timer = realTimer): Promise<Sink> {
  const key = await EventTemplate.build('key', options.key, env, { timezone: env.globals.timezone });
  const encoder = new SinkEncoder(
    encodeOptions(options.encoding, undefined, 'message', env.globals.log_schema.message_key),
    env,
  );
  const client = await redisConnect(options.endpoint, env.log);
  return new RedisSink(options, client, key, encoder, env, timer);
}

const redis: SinkDefinition<RedisSinkOptions> = {
  kind: 'sink',
  type: 'redis',
  description: 'Publish observability data to Redis.',
  options,
  inputs: () => ['log', 'metric', 'trace'],
  build: (options, env) => buildRedisSink(options, env),
};

export default redis;
