// The `splunk_hec_logs` sink, as Vector's: events sent to Splunk's HTTP Event Collector with `default_token`.
// `endpoint_target: event` posts to `/services/collector/event` one JSON object per event — the event
// (encoded with `encoding`: a JSON codec's object as is, any other codec's text as a string), its
// `indexed_fields` as `fields`, its timestamp (`timestamp_key`, taken out of the event) as `time` in seconds,
// its `host_key` value as `host`, and `index`, `source`, `sourcetype` rendered from their templates; with
// `auto_extract_timestamp` the timestamp stays in the event for Splunk to find. `endpoint_target: raw` posts the
// encoded events, one after another as Vector does, to `/services/collector/raw`, with index, source,
// sourcetype and host in the query string (events are batched per their values).
//
// Indexer acknowledgements (`acknowledgements.indexer_acknowledgements_enabled`, on by default): a 200 whose
// body carries an `ackId` delivers its events only once `/services/collector/ack`, asked every
// `query_interval` seconds, says so; after `retry_limit` queries without it they are rejected. At most
// `max_pending_acks` requests wait for theirs. A server answering without `ackId` (acknowledgements off
// there) delivers at once. Requests, retries, concurrency and TLS are those of every HTTP sink
// (support/http-batch-sink.ts). The healthcheck asks `/services/collector/health/1.0`.

import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { BatchReader, BatchWriter } from '../../../runtime/engine.js';
import { type RemapValue, Timestamp } from '../../../runtime/index.js';
import { templateOption } from '../../config/template.js';
import type { ComponentEnv, Sink } from '../component.js';
import type { Gauge } from '../../telemetry/metrics.js';
import { type BatchStatus, toBatch, type EventBatch } from '../../topology/batch.js';
import { compress, CONTENT_ENCODING } from '../support/compression.js';
import { FixedConcurrency, InFlight } from '../support/concurrency.js';
import { encodeOptions, encodingSchema, SinkEncoder } from '../support/encoding.js';
import { eventFieldPath, fieldAt, lossyString } from '../support/event-fields.js';
import { EventTemplate, type RenderFailure, templateFailed } from '../support/event-template.js';
import {
  batchSchema,
  commonSettings,
  HttpBatchSink,
  httpLogSink,
  type HttpRequest,
  httpClient,
  type HttpClient,
  httpTlsSchema,
  httpUri,
  type Outcome,
  requestSchema,
} from '../support/http-batch-sink.js';
import type { RetryTimer } from '../support/retry.js';
import { HEC_TOKEN_METADATA } from '../support/splunk-hec.js';

const acknowledgementFields = {
  enabled: z.boolean().optional(),
  indexer_acknowledgements_enabled: z.boolean().default(true),
  query_interval: z.number().int().min(1).max(255).default(10),
  retry_limit: z.number().int().min(1).max(255).default(30),
  max_pending_acks: z.number().int().positive().default(1_000_000),
};

const options = z
  .strictObject({
    endpoint: httpUri,
    default_token: z.string(),
    endpoint_target: z.enum(['event', 'raw']).default('event'),
    index: templateOption().optional(),
    source: templateOption().optional(),
    sourcetype: templateOption().optional(),
    host_key: z.string().optional(),
    timestamp_key: z.string().optional(),
    indexed_fields: z.array(z.string()).default([]),
    auto_extract_timestamp: z.boolean().optional(),
    encoding: encodingSchema,
    compression: z.enum(['none', 'gzip', 'zlib', 'zstd', 'snappy']).default('none'),
    // The common `acknowledgements` (`enabled`, or a bare boolean) with the indexer acknowledgement options.
    acknowledgements: z
      .union([
        z.boolean().transform((enabled) => z.strictObject(acknowledgementFields).parse({ enabled })),
        z.strictObject(acknowledgementFields),
      ])
      .prefault({}),
    request: requestSchema,
    batch: batchSchema({ max_bytes: 1_000_000, timeout_secs: 1 }),
    tls: httpTlsSchema.optional(),
  })
  .check((ctx) => {
    if (ctx.value.auto_extract_timestamp !== undefined && ctx.value.endpoint_target === 'raw') {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value.auto_extract_timestamp,
        path: ['auto_extract_timestamp'],
        message: '`auto_extract_timestamp` cannot be set for the `raw` endpoint',
      });
    }
  });

type HecOptions = z.infer<typeof options>;

/** The metadata templates, each optional. */
type MetadataField = 'index' | 'source' | 'sourcetype';
const METADATA_FIELDS: readonly MetadataField[] = ['index', 'source', 'sourcetype'];

/** Splunk's query string encoding (Vector's `NON_ALPHANUMERIC` percent-encoding). */
const percentEncode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[0-9A-Za-z]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/**
 * Splunk's indexer acknowledgements (Vector's `HecAckClient`): ack ids wait for `/services/collector/ack` to
 * say they are indexed, asked every `query_interval` seconds; each query spends one of an id's `retry_limit`
 * tries, and an id out of tries is rejected (errored when the query itself failed). A query Splunk refuses
 * (4xx) or answers unreadably means it cannot acknowledge: the ids are delivered on their 200, as Vector does.
 */
class AckClient {
  private readonly waiting = new Map<number, { tries: number; done: (status: BatchStatus) => void }>();
  private timer: NodeJS.Timeout | undefined;
  /** Vector's `splunk_pending_acks`: the ack ids waiting. */
  private readonly pendingGauge: Gauge;

  constructor(
    private readonly query: (acks: number[]) => Promise<{ status: number; body: string }>,
    private readonly env: ComponentEnv,
    private readonly intervalMs: number,
    private readonly retryLimit: number,
  ) {
    this.pendingGauge = env.telemetry.gauge('splunk_pending_acks');
  }

  /** Resolves with the events' status once Splunk acknowledged the id or gave up on it. */
  wait(ackId: number): Promise<BatchStatus> {
    this.timer ??= setInterval(() => void this.poll(), this.intervalMs);
    return new Promise((done) => {
      this.waiting.set(ackId, { tries: this.retryLimit, done });
      this.pendingGauge.set(this.waiting.size);
    });
  }

  /** Ends the queries: every id still waiting is given up as errored. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.finish([...this.waiting.keys()], 'errored');
  }

  private async poll(): Promise<void> {
    const ids = [...this.waiting.keys()];
    if (ids.length === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    for (const entry of this.waiting.values()) entry.tries = Math.max(0, entry.tries - 1);
    let answer: { status: number; body: string };
    try {
      answer = await this.query(ids);
    } catch (error) {
      return this.failed(`Unable to send acknowledgement query request. Will retry.`, String(error));
    }
    if (answer.status >= 500 || answer.status < 200 || (answer.status >= 300 && answer.status < 400))
      return this.failed('Unable to send acknowledgement query request. Will retry.', `HTTP status ${answer.status}`);
    let acks: Record<string, boolean> | undefined;
    if (answer.status < 300) {
      try {
        acks = (JSON.parse(answer.body) as { acks: Record<string, boolean> }).acks;
      } catch {}
    }
    if (acks === undefined || typeof acks !== 'object') {
      this.env.telemetry.error('acknowledgment_failed', 'sending');
      this.env.log.error('Unable to use indexer acknowledgements. Acknowledging based on initial 200 OK.', {
        error_type: 'acknowledgment_failed',
        stage: 'sending',
        internal_log_rate_key: 'indexer_acknowledgements',
      });
      return this.finish(ids, 'delivered');
    }
    this.finish(
      Object.entries(acks)
        .filter(([, indexed]) => indexed === true)
        .map(([id]) => Number(id)),
      'delivered',
    );
    this.expire('rejected');
  }

  private failed(message: string, error: string): void {
    this.env.telemetry.error('acknowledgment_failed', 'sending');
    this.env.log.error(message, {
      error,
      error_type: 'acknowledgment_failed',
      stage: 'sending',
      internal_log_rate_key: 'indexer_acknowledgements',
    });
    this.expire('errored');
  }

  /** Gives up on the ids out of tries. */
  private expire(status: BatchStatus): void {
    this.finish(
      [...this.waiting].filter(([, entry]) => entry.tries === 0).map(([id]) => id),
      status,
    );
  }

  private finish(ids: number[], status: BatchStatus): void {
    for (const id of ids) {
      this.waiting.get(id)?.done(status);
      this.waiting.delete(id);
    }
    this.pendingGauge.set(this.waiting.size);
  }
}

class SplunkHecLogsSink extends HttpBatchSink {
  private readonly headers: Record<string, string>;
  private readonly hostPath: string[] | undefined;
  private readonly timestampPath: string[] | undefined;
  private readonly indexedFields: Array<{ name: string; path: string[] }>;
  private readonly acks: AckClient | undefined;
  /** The requests waiting for their acknowledgement, at most `max_pending_acks`. */
  private readonly pendingAcks: InFlight;

  constructor(
    private readonly options: HecOptions,
    private readonly encoder: SinkEncoder,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
    private readonly templates: Partial<Record<MetadataField, EventTemplate>>,
  ) {
    // Events are batched per the token they came with (splunk_hec's `store_hec_token`), and on the raw
    // endpoint, which takes the metadata in the query string, per its values too.
    super(env, client, timer, { ...commonSettings(options, client), partitioned: true });
    this.headers = {
      'content-type': 'application/json',
      authorization: `Splunk ${options.default_token}`,
      // A Splunk channel is a GUID, one per sink as in Vector.
      'x-splunk-request-channel': randomUUID(),
      ...(options.compression === 'none' ? {} : { 'content-encoding': CONTENT_ENCODING[options.compression] }),
    };
    const { log_schema } = env.globals;
    this.hostPath = eventFieldPath(options.host_key ?? log_schema.host_key);
    this.timestampPath = eventFieldPath(options.timestamp_key ?? log_schema.timestamp_key);
    this.indexedFields = options.indexed_fields.flatMap((name) => {
      const path = eventFieldPath(name);
      return path === undefined ? [] : [{ name, path }];
    });
    const { acknowledgements } = options;
    this.acks = acknowledgements.indexer_acknowledgements_enabled
      ? new AckClient(
          (acks) => this.queryAcks(acks),
          env,
          acknowledgements.query_interval * 1000,
          acknowledgements.retry_limit,
        )
      : undefined;
    this.pendingAcks = new InFlight(new FixedConcurrency(acknowledgements.max_pending_acks));
  }

  /** Events by their passthrough token and, on the raw endpoint, their index, source, sourcetype and host
   * (JSON of the five, null where unset). */
  protected override partition(batch: EventBatch): Map<string, EventBatch> {
    const raw = this.options.endpoint_target === 'raw';
    const rendered = raw ? this.renderMetadata(batch) : {};
    const reader = new BatchReader(batch.bytes);
    const writers = new Map<string, BatchWriter>();
    for (const view of reader) {
      const host = raw && this.hostPath && reader.readPath(view.event, this.hostPath);
      const token = reader.readPath(view.metadata, [HEC_TOKEN_METADATA]);
      const key = JSON.stringify([
        ...METADATA_FIELDS.map((field) => rendered[field]?.[view.index] ?? null),
        typeof host === 'string' ? host : null,
        typeof token === 'string' ? token : null,
      ]);
      let writer = writers.get(key);
      if (writer === undefined) writers.set(key, (writer = new BatchWriter()));
      writer.appendRaw(view.record);
    }
    return new Map([...writers].map(([key, writer]) => [key, toBatch(writer.finish())]));
  }

  protected async buildRequest(key: string, parts: EventBatch[]): Promise<HttpRequest | undefined> {
    const raw = this.options.endpoint_target === 'raw';
    const payloads = parts.flatMap((part) => (raw ? this.rawPayloads(part) : this.eventPayloads(part)));
    if (payloads.length === 0) return undefined;
    let query = '';
    const [index, source, sourcetype, host, token] = JSON.parse(key) as Array<string | null>;
    if (raw) {
      const pairs = Object.entries({ source, sourcetype, index, host }).filter(([, value]) => value !== null);
      query = pairs.map(([name, value]) => `${name}=${percentEncode(value!)}`).join('&');
    } else if (this.options.auto_extract_timestamp) {
      query = 'auto_extract_timestamp=true';
    }
    const path = raw ? '/services/collector/raw' : '/services/collector/event';
    return {
      uri: `${this.endpointUrl(path)}${query === '' ? '' : `?${query}`}`,
      method: 'POST',
      headers: token === null ? this.headers : { ...this.headers, authorization: `Splunk ${token}` },
      body: await compress(this.options.compression, Buffer.concat(payloads)),
      events: payloads.length,
    };
  }

  /** A 2xx delivers, once Splunk acknowledged it when the response carries an `ackId`. */
  protected override async judge(response: Dispatcher.ResponseData, request: HttpRequest): Promise<Outcome> {
    if (this.acks === undefined || response.statusCode < 200 || response.statusCode >= 300)
      return super.judge(response, request);
    const body = await response.body.text();
    let ackId: unknown;
    try {
      ackId = (JSON.parse(body) as { ackId?: unknown }).ackId;
    } catch (error) {
      this.env.log.error('Unable to parse Splunk HEC response. Acknowledging based on initial 200 OK.', {
        error: (error as Error).message,
        error_type: 'parser_failed',
        stage: 'sending',
        internal_log_rate_key: 'hec_response',
      });
      return { delivered: true };
    }
    if (typeof ackId !== 'number') return { delivered: true };
    const acks = this.acks;
    const status = await new Promise<BatchStatus>((resolve) => {
      void this.pendingAcks.start(async () => resolve(await acks.wait(ackId)));
    });
    if (status === 'delivered') return { delivered: true };
    const reason =
      status === 'rejected'
        ? `Splunk did not acknowledge ack id ${ackId} after ${this.options.acknowledgements.retry_limit} queries`
        : `the acknowledgement of ack id ${ackId} could not be queried`;
    return { delivered: false, retry: false, reason, answered: status === 'rejected' };
  }

  override async close(): Promise<void> {
    await super.close();
    this.acks?.stop();
  }

  override kill(): number {
    this.acks?.stop();
    return super.kill();
  }

  /** Vector's healthcheck: `/services/collector/health/1.0` with the token must answer 200. */
  async healthcheck(): Promise<void> {
    const response = await this.fetch(this.endpointUrl('/services/collector/health/1.0'), {
      method: 'GET',
      headers: { authorization: `Splunk ${this.options.default_token}` },
    });
    await response.body.dump();
    switch (response.statusCode) {
      case 200:
        return;
      case 400:
        throw new Error('Invalid HEC token');
      case 503:
        throw new Error('Queues are full');
      default:
        throw new Error(`Unexpected status: ${response.statusCode}`);
    }
  }

  private endpointUrl(path: string): string {
    return `${this.options.endpoint.replace(/\/+$/, '')}${path}`;
  }

  private async queryAcks(acks: number[]): Promise<{ status: number; body: string }> {
    const body = await compress(this.options.compression, Buffer.from(JSON.stringify({ acks })));
    const response = await this.fetch(this.endpointUrl('/services/collector/ack'), {
      method: 'POST',
      headers: this.headers,
      body,
    });
    return { status: response.statusCode, body: await response.body.text() };
  }

  /** Each event's rendered index, source and sourcetype (undefined where unset or not rendered: logged). */
  private renderMetadata(part: EventBatch): Partial<Record<MetadataField, Array<string | undefined>>> {
    return Object.fromEntries(
      METADATA_FIELDS.flatMap((field) => {
        const template = this.templates[field];
        if (template === undefined) return [];
        const texts = template.renderEach(part).map((text: string | RenderFailure) => {
          if (typeof text === 'string') return text;
          templateFailed(this.env, field, text.error, false);
          return undefined;
        });
        return [[field, texts]];
      }),
    );
  }

  /** Raw endpoint: the events encoded, without framing. */
  private rawPayloads(part: EventBatch): Uint8Array[] {
    return this.encoder.encodeEach(part).filter((payload) => payload !== undefined);
  }

  /** Event endpoint: one HEC event object per event. */
  private eventPayloads(part: EventBatch): Buffer[] {
    const rendered = this.renderMetadata(part);
    const reader = new BatchReader(part.bytes);
    const writer = new BatchWriter();
    const envelopes: Array<{ fields: Record<string, RemapValue>; time?: number; host?: string }> = [];
    const extract = !this.options.auto_extract_timestamp;
    for (const view of reader) {
      const { kind, metadata, event: decoded } = reader.decodeRecord(view);
      const event = decoded as RemapValue;
      const host = this.hostPath && fieldAt(event, this.hostPath);
      let time: number | undefined;
      if (extract && this.timestampPath !== undefined) {
        const timestamp = fieldAt(event, this.timestampPath, true);
        if (timestamp instanceof Timestamp) time = Number(timestamp.nanos / 1_000_000n) / 1000;
        else if (timestamp !== undefined) {
          this.env.log.warn('Timestamp was an unexpected type. Deferring to Splunk to set the timestamp.', {
            invalid_type: Array.isArray(timestamp) ? 'array' : typeof timestamp,
            internal_log_rate_key: 'splunk_timestamp_type',
          });
        }
      }
      const fields: Record<string, RemapValue> = {};
      for (const { name, path } of this.indexedFields) {
        const value = fieldAt(event, path);
        if (value !== undefined) fields[name] = value;
      }
      envelopes.push({ fields, time, host: host === undefined || host === null ? undefined : lossyString(host) });
      writer.append(kind, metadata as RemapValue, event);
    }
    const json = this.encoder.options.codec === 'json';
    return this.encoder.encodeEach(toBatch(writer.finish())).flatMap((payload, at) => {
      if (payload === undefined) return [];
      const text = Buffer.from(payload).toString('utf8');
      const { fields, time, host } = envelopes[at]!;
      // Built as text so that the event's JSON stays as the codec wrote it.
      let hec = `{"event":${json ? text : JSON.stringify(text)},"fields":${JSON.stringify(fields, jsonValue)}`;
      if (time !== undefined) hec += `,"time":${time}`;
      if (host !== undefined) hec += `,"host":${JSON.stringify(host)}`;
      for (const field of METADATA_FIELDS) {
        const value = rendered[field]?.[at];
        if (value !== undefined) hec += `,"${field}":${JSON.stringify(value)}`;
      }
      return [Buffer.from(`${hec}}`)];
    });
  }
}

/** JSON of remap values: integers as numbers, bytes as text. */
function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return value;
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildSplunkHecLogsSink(parsed: HecOptions, env: ComponentEnv, timer: RetryTimer): Promise<Sink> {
  const encoder = new SinkEncoder(
    encodeOptions(parsed.encoding, undefined, 'message', env.globals.log_schema.message_key),
    env,
  );
  const templates: Partial<Record<MetadataField, EventTemplate>> = {};
  for (const field of METADATA_FIELDS) {
    const text = parsed[field];
    if (text !== undefined) templates[field] = await EventTemplate.build(field, text, env);
  }
  return new SplunkHecLogsSink(parsed, encoder, env, await httpClient(parsed.tls, env), timer, templates);
}

const splunkHecLogs = {
  ...httpLogSink(
    'splunk_hec_logs',
    "Deliver log data to Splunk's HTTP Event Collector.",
    options,
    buildSplunkHecLogsSink,
  ),
  // Its `acknowledgements` has the indexer acknowledgement options beside `enabled`.
  ownCommon: ['acknowledgements'],
};

export default splunkHecLogs;
