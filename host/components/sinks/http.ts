// The `http` sink: events gathered into batches (`batch.*`), each sent as one request body, encoded,
// wrapped and compressed as Vector does, with `request.concurrency` requests in flight. A failed request is
// retried with exponential backoff and jitter on 408, 429, 5xx (but 501), timeouts and connection errors;
// other statuses are given up at once. Given-up events are counted as errors and discarded.
//
// `write` resolves when the batch is handed on (gathered, or its full batches started) and back-pressures
// when `concurrency` requests are in flight; `close` resolves once every request is delivered or given up.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent, Dispatcher } from 'undici';
import { z } from 'zod';
import type { ComponentEnv, HealthcheckOptions, Sink, SinkDefinition } from '../component.js';
import type { EventBatch } from '../../topology/batch.js';
import { Batcher, batchLimits } from '../support/batcher.js';
import { compress, CONTENT_ENCODING } from '../support/compression.js';
import { encodeOptions, encodingSchema, framingSchema, SinkEncoder } from '../support/encoding.js';

const METHODS = ['delete', 'get', 'head', 'options', 'patch', 'post', 'put', 'trace'] as const;
/** Vector's `u64::MAX` default: retry for ever (bounded by nothing but shutdown). */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

const uri = z.string().refine((text) => URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol), {
  message: 'expected an http:// or https:// URI',
});

const options = z
  .strictObject({
    uri,
    method: z.enum(METHODS).default('post'),
    auth: z
      .discriminatedUnion('strategy', [
        z.strictObject({ strategy: z.literal('basic'), user: z.string(), password: z.string() }),
        z.strictObject({ strategy: z.literal('bearer'), token: z.string() }),
        z.strictObject({ strategy: z.literal('custom'), value: z.string() }),
      ])
      .optional(),
    compression: z.enum(['none', 'gzip', 'zlib', 'zstd']).default('none'),
    encoding: encodingSchema,
    framing: framingSchema.optional(),
    payload_prefix: z.string().default(''),
    payload_suffix: z.string().default(''),
    batch: z
      .strictObject({
        max_bytes: z.number().int().positive().default(10_000_000),
        max_events: z.number().int().positive().optional(),
        timeout_secs: z.number().positive().default(1),
      })
      .prefault({}),
    request: z
      .strictObject({
        concurrency: z.union([z.enum(['adaptive', 'none']), z.number().int().positive()]).default('adaptive'),
        adaptive_concurrency: z
          .strictObject({
            decrease_ratio: z.number().default(0.9),
            ewma_alpha: z.number().default(0.4),
            initial_concurrency: z.number().int().positive().default(1),
            max_concurrency_limit: z.number().int().positive().default(200),
            rtt_deviation_scale: z.number().default(2.5),
          })
          .prefault({}),
        headers: z.record(z.string(), z.string()).default({}),
        rate_limit_duration_secs: z.number().int().positive().default(1),
        rate_limit_num: z.number().int().positive().default(UNLIMITED),
        retry_attempts: z.number().int().nonnegative().default(UNLIMITED),
        retry_initial_backoff_secs: z.number().int().positive().default(1),
        retry_jitter_mode: z.enum(['Full', 'None']).default('Full'),
        retry_max_duration_secs: z.number().int().positive().default(30),
        timeout_secs: z.number().int().positive().default(60),
      })
      .prefault({}),
    retry_strategy: z
      .discriminatedUnion('type', [
        z.strictObject({ type: z.enum(['default', 'all', 'none']) }),
        z.strictObject({ type: z.literal('custom'), status_codes: z.array(z.number().int()) }),
      ])
      .default({ type: 'default' }),
  })
  .check((ctx) => {
    const { payload_prefix: prefix, payload_suffix: suffix } = ctx.value;
    if ((prefix !== '' || suffix !== '') && !isJson(`${prefix}[]${suffix}`)) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['payload_prefix'],
        message: 'payload_prefix and payload_suffix must together wrap the JSON array of events into valid JSON',
      });
    }
  });

type HttpOptions = z.infer<typeof options>;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Vector's `request.concurrency`: adaptive concurrency is not implemented; it runs at its initial value. */
function concurrencyLimit(request: HttpOptions['request']): number {
  if (request.concurrency === 'none') return 1;
  if (request.concurrency === 'adaptive') return request.adaptive_concurrency.initial_concurrency;
  return request.concurrency;
}

/** What to do after a response status (Vector's `RetryStrategy`). */
function retriable(status: number, strategy: HttpOptions['retry_strategy']): boolean {
  switch (strategy.type) {
    case 'none':
      return false;
    case 'all':
      return true;
    case 'custom':
      return strategy.status_codes.includes(status);
    case 'default':
      return status === 429 || status === 408 || (status >= 500 && status !== 501);
  }
}

/** Runs tasks with at most `limit` at once; `start` resolves when the task has started. */
class InFlight {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly limit: number) {}

  async start(task: () => Promise<void>): Promise<void> {
    while (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    const running: Promise<void> = task().finally(() => {
      this.active--;
      this.running.delete(running);
      this.waiting.shift()?.();
    });
    this.running.add(running);
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}

/** `rate_limit_num` requests per `rate_limit_duration_secs` window. */
class RateLimit {
  private windowStart = 0;
  private started = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  async take(): Promise<void> {
    for (;;) {
      const now = performance.now();
      if (now - this.windowStart >= this.windowMs) {
        this.windowStart = now;
        this.started = 0;
      }
      if (this.started < this.limit) {
        this.started++;
        return;
      }
      await sleep(this.windowStart + this.windowMs - now);
    }
  }
}

/** undici, imported when an http sink is built: loading it costs start-up time every other pipeline would pay. */
type Undici = typeof import('undici');

type Outcome = { delivered: true } | { delivered: false; retry: boolean; reason: string };

class HttpSink implements Sink {
  private readonly batcher: Batcher;
  private readonly inFlight: InFlight;
  private readonly rateLimit: RateLimit;
  private readonly dispatcher: Agent;
  private readonly headers: Record<string, string>;
  /** How the JSON codec's framed events become one body (Vector's HTTP encoder). */
  private readonly jsonBody: 'array' | 'ndjson' | undefined;

  constructor(
    private readonly options: HttpOptions,
    private readonly encoder: SinkEncoder,
    private readonly env: ComponentEnv,
    private readonly undici: Undici,
  ) {
    const limit = concurrencyLimit(options.request);
    this.inFlight = new InFlight(limit);
    this.rateLimit = new RateLimit(options.request.rate_limit_num, options.request.rate_limit_duration_secs * 1000);
    this.dispatcher = new undici.Agent({ connections: limit });
    this.batcher = new Batcher(batchLimits(options.batch), (parts, events) =>
      this.inFlight.start(() => this.send(parts, events)),
    );
    const framing = encoder.options.framing!;
    const json = encoder.options.codec === 'json';
    this.jsonBody = !json
      ? undefined
      : framing.method === 'character_delimited' && framing.delimiter === ','
        ? 'array'
        : framing.method === 'newline_delimited'
          ? 'ndjson'
          : undefined;
    this.headers = { ...this.contentHeaders(), ...authHeader(options.auth), ...options.request.headers };
  }

  write(batch: EventBatch): Promise<void> {
    return this.batcher.add(batch);
  }

  async close(): Promise<void> {
    await this.batcher.close();
    await this.inFlight.idle();
    await this.dispatcher.close();
  }

  /** A HEAD request to `healthcheck.uri` must succeed; without one, the sink is healthy (as in Vector). */
  async healthcheck(check: HealthcheckOptions): Promise<void> {
    if (check.uri === undefined) return;
    const response = await this.undici.request(check.uri, {
      method: 'HEAD',
      headers: authHeader(this.options.auth),
      dispatcher: this.dispatcher,
      signal: AbortSignal.timeout(this.options.request.timeout_secs * 1000),
    });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode >= 300)
      throw new Error(`${check.uri} answered HTTP ${response.statusCode}`);
  }

  private contentHeaders(): Record<string, string> {
    const { codec } = this.encoder.options;
    const headers: Record<string, string> = {};
    const contentType =
      this.jsonBody === 'array'
        ? 'application/json'
        : this.jsonBody === 'ndjson'
          ? 'application/x-ndjson'
          : codec === 'text' || codec === 'raw_message'
            ? 'text/plain'
            : undefined;
    if (contentType) headers['content-type'] = contentType;
    if (this.options.compression !== 'none') headers['content-encoding'] = CONTENT_ENCODING[this.options.compression];
    return headers;
  }

  /** Sends one batch of events, retrying as configured; never rejects. */
  private async send(parts: EventBatch[], events: number): Promise<void> {
    let body: Uint8Array;
    try {
      body = await compress(this.options.compression, this.body(parts));
    } catch (error) {
      this.giveUp(events, 'encoder_failed', `Failed building the request body: ${String(error)}`);
      return;
    }
    const { retry_attempts, retry_initial_backoff_secs, retry_max_duration_secs, retry_jitter_mode } =
      this.options.request;
    for (let attempt = 0; ; attempt++) {
      await this.rateLimit.take();
      const outcome = await this.attempt(body);
      if (outcome.delivered) {
        this.env.telemetry.sentRaw(body.length);
        return;
      }
      if (!outcome.retry || attempt >= retry_attempts) {
        this.giveUp(events, 'request_failed', `${outcome.reason}${outcome.retry ? ' (retries exhausted)' : ''}`);
        return;
      }
      // Vector's exponential backoff: initial, ×2 each retry, capped at retry_max_duration_secs.
      const backoff = Math.min(retry_initial_backoff_secs * 2 ** attempt, retry_max_duration_secs) * 1000;
      const delay = retry_jitter_mode === 'Full' ? Math.random() * backoff : backoff;
      this.env.log.warn(`Retrying after error: ${outcome.reason}`, {
        attempt: attempt + 1,
        internal_log_rate_key: 'retrying',
      });
      await sleep(delay);
    }
  }

  private async attempt(body: Uint8Array): Promise<Outcome> {
    const { method, uri } = this.options;
    try {
      const response = await this.undici.request(uri, {
        method: method.toUpperCase() as Dispatcher.HttpMethod,
        headers: this.headers,
        body,
        dispatcher: this.dispatcher,
        signal: AbortSignal.timeout(this.options.request.timeout_secs * 1000),
      });
      await response.body.dump();
      const status = response.statusCode;
      if (status >= 200 && status < 300) return { delivered: true };
      return {
        delivered: false,
        retry: retriable(status, this.options.retry_strategy),
        reason: `HTTP status ${status}`,
      };
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? 'request timed out'
          : `request failed: ${describe(error)}`;
      return { delivered: false, retry: this.options.retry_strategy.type !== 'none', reason };
    }
  }

  /** The request body: the events encoded and framed, wrapped as Vector's HTTP encoder does for JSON. */
  private body(parts: EventBatch[]): Uint8Array {
    const encoded = Buffer.concat(parts.map((part) => this.encoder.encode(part)));
    switch (this.jsonBody) {
      case 'ndjson':
        return encoded.subarray(0, Math.max(0, encoded.length - 1));
      case 'array': {
        const { payload_prefix: prefix, payload_suffix: suffix } = this.options;
        return Buffer.concat([
          Buffer.from(`${prefix}[`),
          encoded.subarray(0, Math.max(0, encoded.length - 1)),
          Buffer.from(`]${suffix}`),
        ]);
      }
      default:
        return encoded;
    }
  }

  private giveUp(events: number, errorType: string, message: string): void {
    this.env.telemetry.error(errorType, 'sending');
    this.env.telemetry.discarded(events, false);
    this.env.log.error(`Events dropped: ${message}`, {
      error_type: errorType,
      stage: 'sending',
      count: events,
      internal_log_rate_key: errorType,
    });
  }
}

function authHeader(auth: HttpOptions['auth']): Record<string, string> {
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

/** A connection error's text, with its cause (undici wraps the socket's error). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

const http: SinkDefinition<HttpOptions> = {
  kind: 'sink',
  type: 'http',
  description: 'Deliver observability event data to an HTTP server.',
  options,
  inputs: () => ['log', 'metric', 'trace'],
  build: async (parsed, env) => {
    const encoder = new SinkEncoder(
      encodeOptions(parsed.encoding, parsed.framing, 'message', env.globals.log_schema.message_key),
      env,
    );
    return new HttpSink(parsed, encoder, env, await import('undici'));
  },
};

export default http;
