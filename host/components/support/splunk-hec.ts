// What the splunk_hec source and the splunk_hec sinks share: where the source keeps a request's token, and
// the sinks' HEC machinery (Vector's `sinks::splunk_hec::common`) — the options both sinks have, the request
// headers (token, one channel GUID per sink, compression), the events' token passed through
// (`store_hec_token`), the index/source/sourcetype templates, indexer acknowledgements
// (`acknowledgements.indexer_acknowledgements_enabled`, on by default: a 200 whose body carries an `ackId`
// delivers its events only once `/services/collector/ack`, asked every `query_interval` seconds, says so; after
// `retry_limit` queries without it they are rejected; at most `max_pending_acks` requests wait for theirs; a
// server answering without `ackId` delivers at once) and the healthcheck on `/services/collector/health/1.0`.

import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { BatchReader, RecordCursor } from '../../../runtime/engine.js';
import { templateOption } from '../../config/template.js';
import type { Gauge } from '../../telemetry/metrics.js';
import type { BatchStatus, EventBatch } from '../../topology/batch.js';
import type { ComponentEnv } from '../component.js';
import { compress, CONTENT_ENCODING } from './compression.js';
import { FixedConcurrency, InFlight } from './concurrency.js';
import { EventTemplate, type RenderFailure, templateFailed } from './event-template.js';
import {
  batchSchema,
  commonSettings,
  HttpBatchSink,
  type HttpClient,
  type HttpRequest,
  httpTlsSchema,
  httpUri,
  type Outcome,
  requestSchema,
} from './http-batch-sink.js';
import type { RetryTimer } from './retry.js';

/** Where the splunk_hec source keeps the token a request came with (`store_hec_token`): the splunk_hec sinks
 * send its events with that token rather than `default_token`, as Vector's do. */
export const HEC_TOKEN_METADATA = 'splunk_hec_token';

const acknowledgementFields = {
  enabled: z.boolean().optional(),
  indexer_acknowledgements_enabled: z.boolean().default(true),
  query_interval: z.number().int().min(1).max(255).default(10),
  retry_limit: z.number().int().min(1).max(255).default(30),
  max_pending_acks: z.number().int().positive().default(1_000_000),
};

/** The options of both HEC sinks. */
export const hecSinkFields = {
  endpoint: httpUri,
  default_token: z.string(),
  index: templateOption().optional(),
  source: templateOption().optional(),
  sourcetype: templateOption().optional(),
  host_key: z.string().optional(),
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
};

const hecSinkShape = z.object(hecSinkFields);
type HecSinkOptions = z.infer<typeof hecSinkShape>;

/** The metadata templates, each optional. */
type MetadataField = 'index' | 'source' | 'sourcetype';
export const METADATA_FIELDS: readonly MetadataField[] = ['index', 'source', 'sourcetype'];
export type HecTemplates = Partial<Record<MetadataField, EventTemplate>>;

/** The sink's index, source and sourcetype templates. */
export async function hecTemplates(options: HecSinkOptions, env: ComponentEnv): Promise<HecTemplates> {
  const templates: HecTemplates = {};
  for (const field of METADATA_FIELDS) {
    const text = options[field];
    if (text !== undefined) templates[field] = await EventTemplate.build(field, text, env);
  }
  return templates;
}

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

export abstract class HecBatchSink extends HttpBatchSink {
  protected readonly headers: Record<string, string>;
  private readonly acks: AckClient | undefined;
  /** The requests waiting for their acknowledgement, at most `max_pending_acks`. */
  private readonly pendingAcks: InFlight;

  constructor(
    private readonly hecOptions: HecSinkOptions,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
    private readonly templates: HecTemplates,
  ) {
    // Events are batched per the token they came with at least (`partition`).
    super(env, client, timer, { ...commonSettings(hecOptions, client), partitioned: true });
    this.headers = {
      'content-type': 'application/json',
      authorization: `Splunk ${hecOptions.default_token}`,
      // A Splunk channel is a GUID, one per sink as in Vector.
      'x-splunk-request-channel': randomUUID(),
      ...(hecOptions.compression === 'none' ? {} : { 'content-encoding': CONTENT_ENCODING[hecOptions.compression] }),
    };
    const { acknowledgements } = hecOptions;
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

  /** The token an event came with (`HEC_TOKEN_METADATA`), null for none. */
  protected passthroughToken(reader: BatchReader, record: RecordCursor): string | null {
    const token = reader.readPath(record.bytes, [HEC_TOKEN_METADATA], record.metadataAt);
    return typeof token === 'string' ? token : null;
  }

  /**
   * The POST of `payloads` to `path` (and `query`), with the events' token when they came with one; `events`:
   * how many events the payloads hold (one each unless said).
   */
  protected async hecRequest(
    path: string,
    query: string,
    token: string | null,
    payloads: Uint8Array[],
    events = payloads.length,
  ): Promise<HttpRequest> {
    return {
      uri: `${this.endpointUrl(path)}${query === '' ? '' : `?${query}`}`,
      method: 'POST',
      headers: token === null ? this.headers : { ...this.headers, authorization: `Splunk ${token}` },
      body: await compress(this.hecOptions.compression, Buffer.concat(payloads)),
      events,
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
        ? `Splunk did not acknowledge ack id ${ackId} after ${this.hecOptions.acknowledgements.retry_limit} queries`
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
      headers: { authorization: `Splunk ${this.hecOptions.default_token}` },
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

  protected endpointUrl(path: string): string {
    return `${this.hecOptions.endpoint.replace(/\/+$/, '')}${path}`;
  }

  private async queryAcks(acks: number[]): Promise<{ status: number; body: string }> {
    const body = await compress(this.hecOptions.compression, Buffer.from(JSON.stringify({ acks })));
    const response = await this.fetch(this.endpointUrl('/services/collector/ack'), {
      method: 'POST',
      headers: this.headers,
      body,
    });
    return { status: response.statusCode, body: await response.body.text() };
  }

  /** Each event's rendered index, source and sourcetype (undefined where unset or not rendered: logged). */
  protected renderMetadata(part: EventBatch): Partial<Record<MetadataField, Array<string | undefined>>> {
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
}
