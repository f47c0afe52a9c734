// The `amqp` sink: each log event encoded as one message published to RabbitMQ (AMQP 0.9.1) on `exchange`
// with `routing_key` (templates rendered per event; none: the empty key) and `properties` (`content_type`,
// `content_encoding`, `expiration_ms`, and `priority`, a number or a template, clamped to 0–255, 0 when it
// does not render, as Vector does). A batch is delivered once the broker confirmed every message of it
// (publisher confirms), on up to `max_channels` channels at once. A lost connection is opened again and the
// batch sent again with Vector's backoff (1 s growing to 30 s, for as long as svc runs), as is a batch with a
// negative confirm (a full queue that rejects publishes); a batch the broker refuses by closing its channel
// (an exchange that does not exist, no permission) is errored at once, as Vector errors it. Events whose
// exchange or routing key does not render, or that fail to encode, are counted as errors and dropped.
// Messages are published as Vector's are: not mandatory, no delivery mode (the queue's durability decides).

import { z } from 'zod';
import type { ChannelModel, ConfirmChannel, Options } from 'amqplib';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import type { EventBatch } from '../../topology/batch.js';
import { amqpClose, amqpConnect, amqpConnectionFields, amqpFiles } from '../support/amqp.js';
import { encodeOptions, encodingSchema, SinkEncoder } from '../support/encoding.js';
import { EventTemplate, groupByKey, templateFailed } from '../support/event-template.js';
import { answeredWithin, MessageSink, type Messages } from '../support/message-sink.js';
import { requestFields, type RequestOptions } from '../support/request.js';
import { NotRetriable, realTimer, type RetryTimer } from '../support/retry.js';
import { templateOption } from '../../config/template.js';

const options = z.strictObject({
  ...amqpConnectionFields,
  exchange: templateOption(),
  routing_key: templateOption().optional(),
  properties: z
    .strictObject({
      content_type: z.string().optional(),
      content_encoding: z.string().optional(),
      expiration_ms: z.number().int().nonnegative().optional(),
      // A number, or a template rendering to one; a text without a field must be a number already.
      priority: z
        .union([
          z.number().int().nonnegative(),
          templateOption().refine((text) => text.includes('{{') || /^\s*\d+\s*$/.test(text), {
            message: 'expected a whole number or a template such as "{{ priority }}"',
          }),
        ])
        .optional(),
    })
    .optional(),
  encoding: encodingSchema,
  max_channels: z.number().int().positive().default(4),
});
type AmqpSinkOptions = z.infer<typeof options>;

/** Where a group of messages goes, as MessageSink's destination (a JSON text). */
interface Route {
  exchange: string;
  routingKey: string;
  priority: number | undefined;
}

/** Renders each event's exchange, routing key and priority, and groups the events by them. */
class Routes {
  constructor(
    private readonly exchange: EventTemplate,
    private readonly routingKey: EventTemplate | undefined,
    private readonly priority: EventTemplate | number | undefined,
  ) {}

  group(batch: EventBatch, env: ComponentEnv): Map<string, EventBatch> {
    const fixedExchange = this.exchange.fixedText;
    const fixedKey = this.routingKey ? this.routingKey.fixedText : '';
    const fixedPriority = typeof this.priority === 'object' ? this.priority.fixedText : this.priority;
    const priorityFixed = typeof this.priority !== 'object' || fixedPriority !== undefined;
    if (fixedExchange !== undefined && fixedKey !== undefined && priorityFixed)
      return new Map([[this.route(fixedExchange, fixedKey, fixedPriority, env), batch]]);
    const exchanges = this.exchange.renderEach(batch);
    const keys = this.routingKey?.renderEach(batch);
    const priorities = priorityFixed ? undefined : (this.priority as EventTemplate).renderEach(batch);
    return groupByKey(
      batch,
      exchanges.map((exchange, i) => {
        const key = keys?.[i] ?? '';
        if (typeof exchange !== 'string') templateFailed(env, 'exchange', exchange.error, true);
        else if (typeof key !== 'string') templateFailed(env, 'routing_key', key.error, true);
        else return this.route(exchange, key, priorities ? priorities[i] : fixedPriority, env);
        return undefined;
      }),
    );
  }

  /** The destination text; a priority that is not a whole number is 0, counted and logged. */
  private route(
    exchange: string,
    routingKey: string,
    priority: string | number | { error: string } | undefined,
    env: ComponentEnv,
  ): string {
    let value: number | undefined;
    if (typeof priority === 'number') value = priority;
    else if (typeof priority === 'string' && /^\s*\d+\s*$/.test(priority)) value = Number(priority);
    else if (priority !== undefined) {
      const reason = typeof priority === 'string' ? `"${priority}" is not a whole number` : priority.error;
      templateFailed(env, 'properties.priority', reason, false);
      value = 0;
    }
    const route: Route = {
      exchange,
      routingKey,
      priority: value === undefined ? undefined : Math.min(Math.max(value, 0), 255),
    };
    return JSON.stringify(route);
  }
}

class AmqpSink extends MessageSink {
  private connection: ChannelModel | undefined;
  private connecting: Promise<ChannelModel> | undefined;
  /** Open confirm channels not publishing now. */
  private readonly idle: ConfirmChannel[] = [];
  /** Why the broker closed a channel (a channel error), by channel. */
  private readonly refusals = new WeakMap<ConfirmChannel, Error>();
  private readonly closed = new WeakSet<ConfirmChannel>();

  constructor(
    private readonly options: AmqpSinkOptions,
    request: RequestOptions,
    routes: Routes,
    encoder: SinkEncoder,
    env: ComponentEnv,
    timer: RetryTimer,
  ) {
    super(request, routes, encoder, env, timer, 'Publishing to AMQP failed');
  }

  /** The connection, opened (again) when there is none. */
  async connect(): Promise<ChannelModel> {
    if (this.connection) return this.connection;
    this.connecting ??= amqpConnect(this.options, this.env.log)
      .then((connection) => {
        connection.on('close', () => {
          if (this.connection !== connection) return;
          this.connection = undefined;
          this.idle.length = 0;
        });
        this.connection = connection;
        return connection;
      })
      .finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async channel(): Promise<ConfirmChannel> {
    for (let channel = this.idle.pop(); channel; channel = this.idle.pop())
      if (!this.closed.has(channel)) return channel;
    const channel = await (await this.connect()).createConfirmChannel();
    channel.on('error', (error: Error) => this.refusals.set(channel, error));
    channel.on('close', () => this.closed.add(channel));
    return channel;
  }

  protected async attempt(messages: Messages): Promise<void> {
    const channel = await this.channel();
    const properties = this.options.properties;
    const base: Options.Publish = {
      ...(properties?.content_type !== undefined && { contentType: properties.content_type }),
      ...(properties?.content_encoding !== undefined && { contentEncoding: properties.content_encoding }),
      ...(properties?.expiration_ms !== undefined && { expiration: String(properties.expiration_ms) }),
    };
    const confirmed: Array<Promise<void>> = [];
    for (const { destination, payloads } of messages) {
      const route = JSON.parse(destination) as Route;
      const publish = route.priority === undefined ? base : { ...base, priority: route.priority };
      for (const payload of payloads)
        confirmed.push(
          new Promise((resolve, reject) =>
            channel.publish(
              route.exchange,
              route.routingKey,
              Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength),
              publish,
              (error: Error | null) => (error ? reject(error) : resolve()),
            ),
          ),
        );
    }
    try {
      await answeredWithin(Promise.all(confirmed), this.request.timeout_secs * 1000);
    } catch (error) {
      const refusal = this.refusals.get(channel);
      // Confirms may still come on a channel that did not answer in time: it is not used again.
      if (!this.closed.has(channel)) void channel.close().catch(() => {});
      if (refusal) throw new NotRetriable(refusal.message);
      throw error;
    }
    this.idle.push(channel);
  }

  protected async disconnect(): Promise<void> {
    if (this.connection) await amqpClose(this.connection);
  }

  protected drop(): void {
    if (this.connection) void amqpClose(this.connection);
  }

  async healthcheck(): Promise<void> {
    await this.connect();
  }
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildAmqpSink(options: AmqpSinkOptions, env: ComponentEnv, timer = realTimer): Promise<Sink> {
  const template = (option: string, text: string) =>
    EventTemplate.build(option, text, env, { timezone: env.globals.timezone });
  const priority = options.properties?.priority;
  const routes = new Routes(
    await template('exchange', options.exchange),
    options.routing_key === undefined ? undefined : await template('routing_key', options.routing_key),
    typeof priority === 'string' ? await template('properties.priority', priority) : priority,
  );
  const encoder = new SinkEncoder(
    encodeOptions(options.encoding, undefined, 'message', env.globals.log_schema.message_key),
    env,
  );
  // Vector's amqp sink has no `request` options: its defaults, one batch per channel at once.
  const request = requestFields('none').parse({ concurrency: options.max_channels });
  const sink = new AmqpSink(options, request, routes, encoder, env, timer);
  await sink.connect();
  return sink;
}

const amqp: SinkDefinition<AmqpSinkOptions> = {
  kind: 'sink',
  type: 'amqp',
  description: 'Send events to AMQP 0.9.1 compatible brokers like RabbitMQ.',
  options,
  files: amqpFiles,
  inputs: () => ['log'],
  build: (options, env) => buildAmqpSink(options, env),
};

export default amqp;
