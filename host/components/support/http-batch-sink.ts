// What every batching HTTP sink (http, loki, elasticsearch, splunk_hec_logs) shares, as Vector's
// `HttpBatchService` and its tower layers do: events gathered per partition into batches (`batch.*`), each
// batch sent as one request with `request.concurrency` requests in flight (support/concurrency.ts) and at most
// `request.rate_limit_num` per window; a failed request is retried with Vector's Fibonacci backoff
// (support/retry.ts) when the sink deems it retriable (by default 408, 429, 5xx but 501, timeouts and
// connection errors); other failures are given up at once. Given-up events are counted as errors and
// discarded. https:// is reached with the `tls` options (support/tls.ts), through the proxy in force
// (support/proxy.ts) unless `no_proxy` exempts it.
//
// A sink says how events partition, how a batch becomes a request, and what a response means (a partial
// failure may retry a smaller request).
//
// `write` resolves when the batch is handed on (gathered, or its full batches started) and back-pressures
// when `concurrency` requests are in flight; `close` resolves once every request is delivered or given up;
// `kill` stops at once and says how many events were neither.

import { setMaxListeners } from 'node:events';
import type { ConnectionOptions } from 'node:tls';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import type { OptionsSchema } from '../../config/schema.js';
import type { BatchStatus, EventBatch } from '../../topology/batch.js';
import { Batcher, type BatchLimits, batchLimits } from './batcher.js';
import { type ConcurrencyLimit, InFlight } from './concurrency.js';
import {
  concurrencyLimit,
  maxConcurrency,
  RateLimit,
  requestFields as requestOptionsOf,
  type RequestOptions,
} from './request.js';
import { effectiveProxy, ProxiedDispatchers } from './proxy.js';
import { realTimer, RetryPolicy, type RetryTimer } from './retry.js';
import { clientTlsOptions, tlsClientSchema, tlsFiles } from './tls.js';

/** Vector's `request` options (TowerRequestConfig) with its defaults (support/request.ts). */
const requestFields = requestOptionsOf('adaptive');

export const requestSchema = requestFields.prefault({});

/** `request` with the `headers` table of the sinks that send the user's headers too. */
export const requestWithHeadersSchema = requestFields
  .extend({ headers: z.record(z.string(), z.string()).default({}) })
  .prefault({});

/** The `batch` options with the sink's defaults (Vector's `SinkBatchSettings`). */
export function batchSchema(defaults: { max_bytes: number; max_events?: number; timeout_secs: number }) {
  const maxEvents = z.number().int().positive();
  return z
    .strictObject({
      max_bytes: z.number().int().positive().default(defaults.max_bytes),
      max_events: defaults.max_events === undefined ? maxEvents.optional() : maxEvents.default(defaults.max_events),
      timeout_secs: z.number().positive().default(defaults.timeout_secs),
    })
    .prefault({});
}

/** Vector's HTTP `auth` strategies (but `aws`). */
export const authSchema = z.discriminatedUnion('strategy', [
  z.strictObject({ strategy: z.literal('basic'), user: z.string(), password: z.string() }),
  z.strictObject({ strategy: z.literal('bearer'), token: z.string() }),
  z.strictObject({ strategy: z.literal('custom'), value: z.string() }),
]);

export type AuthOptions = z.infer<typeof authSchema>;

export function authHeader(auth: AuthOptions | undefined): Record<string, string> {
  switch (auth?.strategy) {
    case undefined:
      return {};
    case 'basic':
      return { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` };
    case 'bearer':
      return { authorization: `Bearer ${auth.token}` };
    case 'custom':
      return { authorization: auth.value };
  }
}

/**
 * Vector's `UriSerde`: a user and password in an endpoint's URI are its basic auth. The URI without them, and
 * them; `TWO_CREDENTIALS` is Vector's error when `auth` is set as well.
 */
export function uriCredentials(uri: string): { uri: string; auth?: AuthOptions } {
  const url = new URL(uri);
  if (url.username === '' && url.password === '') return { uri };
  const auth = {
    strategy: 'basic',
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  } as const;
  url.username = '';
  url.password = '';
  return { uri: url.toString(), auth };
}

export const TWO_CREDENTIALS = 'Two authorization credentials was provided.';

/** `tls` of an HTTP client: undici negotiates ALPN itself, HTTP/1.1, and HTTP/2 when `alpn_protocols` lists "h2". */
export const httpTlsSchema = tlsClientSchema.extend({ alpn_protocols: z.array(z.enum(['http/1.1', 'h2'])).optional() });

type HttpTlsOptions = z.infer<typeof httpTlsSchema>;

/** An http:// or https:// URI (a sink's `endpoint`). */
export const httpUri = z
  .string()
  .refine((text) => URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol), {
    message: 'expected an http:// or https:// URI',
  });

/** Vector's `retry_strategy`: which failures are retried beyond (`all`, `custom`) or instead of (`none`) the
 * sink's default logic. */
export const retryStrategySchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.enum(['default', 'all', 'none']) }),
    z.strictObject({ type: z.literal('custom'), status_codes: z.array(z.number().int()) }),
  ])
  .default({ type: 'default' });

/** Vector's default retry logic for a status: 408, 429 and 5xx but 501. */
export function retriableStatus(status: number): boolean {
  return status === 429 || status === 408 || (status >= 500 && status !== 501);
}

/** A connection error's text, with its cause (undici wraps the socket's error). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** undici, imported when an HTTP sink is built: loading it costs start-up time every other pipeline would pay. */
type Undici = typeof import('undici');

/** What an HTTP sink's requests go out with: undici, and the `tls` options read (their files). */
export interface HttpClient {
  undici: Undici;
  tls: ConnectionOptions;
}

export async function httpClient(tls: HttpTlsOptions | undefined, env: ComponentEnv): Promise<HttpClient> {
  return { undici: await import('undici'), tls: await clientTlsOptions(tls, env.log) };
}

/** The definition of a sink of logs sending over HTTP (`build` gets the real retry timer). */
export function httpLogSink<Options extends { tls?: HttpTlsOptions }>(
  type: string,
  description: string,
  options: OptionsSchema<Options>,
  build: (parsed: Options, env: ComponentEnv, timer: RetryTimer) => Promise<Sink>,
): SinkDefinition<Options> {
  return {
    kind: 'sink',
    type,
    description,
    options,
    files: (parsed) => tlsFiles(parsed.tls),
    inputs: () => ['log'],
    build: (parsed, env) => build(parsed, env, realTimer),
  };
}

export interface HttpRequest {
  uri: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body: Uint8Array;
  /** The events it carries, when it knows them: fewer than its batch's when some were left out building it,
   * or in a retry of the failed part of a request. */
  events?: number;
}

/** Events of a request the server refused one by one (a bulk request's failed items): given up, the batch
 * then rejected, while the rest is delivered or retried. */
interface Refused {
  count: number;
  reason: string;
}

/**
 * What became of one attempt. `answered`: the server answered (with a status that is not a success), rather
 * than the request failing. `retryWith`: retry this smaller request instead (a partial failure).
 */
export type Outcome =
  | { delivered: true; refused?: Refused }
  | {
      delivered: false;
      retry: boolean;
      reason: string;
      answered: boolean;
      retryWith?: HttpRequest;
      refused?: Refused;
    };

export interface HttpSinkSettings {
  request: RequestOptions;
  batch: BatchLimits;
  tls: ConnectionOptions;
  /** `tls.alpn_protocols` lists "h2". */
  allowH2: boolean;
  /** A fixed concurrency the sink imposes over `request.concurrency` (loki's ordering actions). */
  concurrency?: number;
  /** Whether timeouts and connection errors are retried (the http sink's `retry_strategy: none` does not). */
  retryFailedRequests?: boolean;
  /** Events partition by a key per event (`partition`); an idle partition's batcher goes. */
  partitioned: boolean;
}

/** The settings from a sink's common options: `request`, `batch` and `tls` (with `tls` read into `tls`). */
export function commonSettings(
  options: {
    request: RequestOptions;
    batch: { max_events?: number; max_bytes?: number; timeout_secs: number };
    tls?: { alpn_protocols?: string[] };
  },
  client: HttpClient,
): Pick<HttpSinkSettings, 'request' | 'batch' | 'tls' | 'allowH2'> {
  return {
    request: options.request,
    batch: batchLimits(options.batch),
    tls: client.tls,
    allowH2: options.tls?.alpn_protocols?.includes('h2') ?? false,
  };
}

/** The partition key of a sink whose events all go together. */
const ONE_PARTITION = '';

export abstract class HttpBatchSink implements Sink {
  /** A batcher per partition key. */
  private readonly batchers = new Map<string, Batcher>();
  private readonly concurrency: ConcurrencyLimit;
  private readonly inFlight: InFlight;
  private readonly rateLimit: RateLimit;
  protected readonly dispatchers: ProxiedDispatchers;
  /** Events written and neither delivered nor given up yet: gathered, in flight or waiting to retry. */
  private pending = 0;
  /** Aborted by `kill`: requests and retry waits stop. */
  protected readonly killed = new AbortController();

  private readonly undici: Undici;

  constructor(
    protected readonly env: ComponentEnv,
    client: HttpClient,
    private readonly timer: RetryTimer,
    private readonly settings: HttpSinkSettings,
  ) {
    this.undici = client.undici;
    // Every request under way may listen to it (past ten, Node warns of a leak).
    setMaxListeners(0, this.killed.signal);
    this.concurrency = concurrencyLimit(settings.request, settings.concurrency);
    this.inFlight = new InFlight(this.concurrency);
    this.rateLimit = new RateLimit(settings.request);
    this.dispatchers = new ProxiedDispatchers(client.undici, effectiveProxy(env.globals.proxy, env.proxy), {
      connections: maxConcurrency(settings.request, settings.concurrency),
      tls: settings.tls,
      allowH2: settings.allowH2,
    });
  }

  /** The batch's events by partition key, in order (events left out are counted by the sink). Only called
   * when `settings.partitioned`. */
  protected partition(_batch: EventBatch): Map<string, EventBatch> {
    throw new Error('a partitioned HTTP sink must say how events partition');
  }

  /** The request carrying one gathered batch of a partition; undefined when none of its events is left to
   * send (the sink counted them). Throwing: the events cannot be encoded. */
  protected abstract buildRequest(key: string, parts: EventBatch[]): Promise<HttpRequest | undefined>;

  /** What a response means; reads or discards its body. By default a 2xx delivers, and the statuses
   * `retriable` says are retried. */
  protected async judge(response: Dispatcher.ResponseData, _request: HttpRequest): Promise<Outcome> {
    await response.body.dump();
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { delivered: true };
    return { delivered: false, retry: this.retriable(status), reason: `HTTP status ${status}`, answered: true };
  }

  protected retriable(status: number): boolean {
    return retriableStatus(status);
  }

  async write(batch: EventBatch): Promise<void> {
    if (!this.settings.partitioned) {
      this.pending += batch.count;
      return this.batcherFor(ONE_PARTITION).add(batch);
    }
    // Each group of events carries the batch's finalizer (events left out were counted and dropped).
    const groups = this.partition(batch);
    const { finalizer } = batch;
    const added: Promise<void>[] = [];
    for (const [key, events] of groups) {
      finalizer?.hold();
      this.pending += events.count;
      added.push(this.batcherFor(key).add({ ...events, finalizer }));
    }
    finalizer?.release();
    await Promise.all(added);
  }

  private batcherFor(key: string): Batcher {
    let batcher = this.batchers.get(key);
    if (batcher === undefined) {
      const made = new Batcher(this.settings.batch, async (parts, events) => {
        await this.inFlight.start(() => this.send(key, parts, events));
        // A partition's batcher goes once it has nothing gathered, as Vector expires idle partitions: a
        // key of many values must not keep one per value for ever (its requests are `inFlight`'s).
        if (this.settings.partitioned && made.isEmpty && this.batchers.get(key) === made) this.batchers.delete(key);
      });
      this.batchers.set(key, (batcher = made));
    }
    return batcher;
  }

  async close(): Promise<void> {
    await Promise.all([...this.batchers.values()].map((batcher) => batcher.close()));
    await this.inFlight.idle();
    await this.dispatchers.close();
  }

  kill(): number {
    this.killed.abort();
    return this.pending;
  }

  /** A request outside the batches (healthchecks, acknowledgement queries), with the request timeout. */
  protected fetch(
    uri: string,
    options: { method: Dispatcher.HttpMethod; headers?: Record<string, string>; body?: string | Uint8Array },
  ): Promise<Dispatcher.ResponseData> {
    return this.undici.request(uri, {
      ...options,
      dispatcher: this.dispatchers.for(uri),
      signal: AbortSignal.any([AbortSignal.timeout(this.settings.request.timeout_secs * 1000), this.killed.signal]),
    });
  }

  /** Sends one batch of events, retrying as configured; never rejects. Once killed, it stops without
   * counting: `kill` counted what was pending. */
  private async send(key: string, parts: EventBatch[], events: number): Promise<void> {
    if (this.killed.signal.aborted) return;
    let request: HttpRequest | undefined;
    try {
      request = await this.buildRequest(key, parts);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.giveUp(parts, events, 'encoder_failed', `Failed building the request body: ${reason}`);
      return;
    }
    if (request === undefined) return this.finished(parts, events);
    if (!URL.canParse(request.uri)) {
      // A rendered URI that is no URI: no request can carry these events.
      return this.giveUp(parts, events, 'request_failed', `invalid URI "${request.uri}"`, 'rejected');
    }
    const retries = new RetryPolicy(this.settings.request, this.timer.random);
    let status: BatchStatus = 'delivered';
    /** The events the request carries: fewer than the batch's when some were left out (counted) building it,
     * or once a partial failure retries only some. */
    let carried = request.events ?? events;
    for (let attempt = 1; ; attempt++) {
      await this.rateLimit.take();
      if (this.killed.signal.aborted) return;
      const started = performance.now();
      const outcome = await this.attempt(request);
      if (this.killed.signal.aborted) return;
      this.concurrency.finished(performance.now() - started, !outcome.delivered && outcome.retry);
      if (outcome.refused !== undefined) {
        status = 'rejected';
        carried -= outcome.refused.count;
        this.countDropped(outcome.refused.count, 'request_failed', outcome.refused.reason);
      }
      if (outcome.delivered) {
        this.env.telemetry.sentRaw(request.body.length);
        return this.finished(parts, events, status);
      }
      const delay = outcome.retry ? retries.nextDelay() : undefined;
      if (delay === undefined) {
        // As in Vector, events the server refused outright are rejected, the others errored.
        const failed = outcome.answered && !outcome.retry ? 'rejected' : 'errored';
        const reason = outcome.retry ? `${outcome.reason}; retries exhausted` : outcome.reason;
        this.pending -= events;
        this.countDropped(carried, 'request_failed', reason);
        for (const part of parts) part.finalizer?.release(status === 'rejected' ? status : failed);
        return;
      }
      if (outcome.retryWith) {
        request = outcome.retryWith;
        carried = request.events ?? carried;
      }
      this.env.log.warn('Retrying after error.', {
        error: outcome.reason,
        attempt,
        delay_ms: delay,
        internal_log_rate_key: 'retrying',
      });
      try {
        await this.timer.sleep(delay, this.killed.signal);
      } catch {
        return;
      }
    }
  }

  /** The request one attempt sends: a sink that signs its requests signs each attempt anew, as a signature
   * carries its time and the server refuses an old one. Throwing fails the attempt (retried). */
  protected async authorize(request: HttpRequest): Promise<HttpRequest> {
    return request;
  }

  /** One attempt of a request over HTTP; a sink of another protocol sends it its own way. */
  protected async attempt(request: HttpRequest): Promise<Outcome> {
    try {
      const sent = await this.authorize(request);
      const response = await this.undici.request(sent.uri, {
        method: sent.method,
        headers: sent.headers,
        body: sent.body,
        dispatcher: this.dispatchers.for(request.uri),
        signal: AbortSignal.any([AbortSignal.timeout(this.settings.request.timeout_secs * 1000), this.killed.signal]),
      });
      return await this.judge(response, request);
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? 'request timed out'
          : `request failed: ${describe(error)}`;
      return { delivered: false, retry: this.settings.retryFailedRequests ?? true, reason, answered: false };
    }
  }

  private finished(parts: EventBatch[], events: number, status: BatchStatus = 'delivered'): void {
    this.pending -= events;
    for (const part of parts) part.finalizer?.release(status);
  }

  private giveUp(
    parts: EventBatch[],
    events: number,
    errorType: string,
    reason: string,
    status: BatchStatus = 'errored',
  ): void {
    this.pending -= events;
    for (const part of parts) part.finalizer?.release(status);
    this.countDropped(events, errorType, reason);
  }

  private countDropped(events: number, errorType: string, reason: string): void {
    this.env.telemetry.error(errorType, 'sending');
    this.env.telemetry.discarded(events, false);
    this.env.log.error('Events dropped', {
      intentional: false,
      count: events,
      reason,
      error_type: errorType,
      stage: 'sending',
      internal_log_rate_key: errorType,
    });
  }
}
