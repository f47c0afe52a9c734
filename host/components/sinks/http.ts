// The `http` sink: events gathered into batches (`batch.*`), each sent as one request body, encoded,
// wrapped and compressed as Vector does, with `request.concurrency` requests in flight (support/concurrency.ts).
// A failed request is retried with Vector's Fibonacci backoff (support/retry.ts) on 408, 429, 5xx (but 501),
// timeouts and connection errors; other statuses are given up at once. Given-up events are counted as errors
// and discarded. An https:// URI is reached with the `tls` options (support/tls.ts), through the proxy in force
// (support/proxy.ts) unless `no_proxy` exempts it; so is `healthcheck.uri`. A `uri` with fields in it
// (`{{ team }}`) is rendered per event (support/event-template.ts), and events are batched per URI.
//
// `write` resolves when the batch is handed on (gathered, or its full batches started) and back-pressures
// when `concurrency` requests are in flight; `close` resolves once every request is delivered or given up;
// `kill` stops at once and says how many events were neither.

import type { ConnectionOptions } from 'node:tls';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { ComponentEnv, HealthcheckOptions, Sink, SinkDefinition } from '../component.js';
import type { BatchStatus, EventBatch } from '../../topology/batch.js';
import { Batcher, batchLimits } from '../support/batcher.js';
import { compress, CONTENT_ENCODING } from '../support/compression.js';
import { type ConcurrencyLimit, InFlight } from '../support/concurrency.js';
import { concurrencyLimit, maxConcurrency, RateLimit, requestSchema } from '../support/request.js';
import { encodeOptions, encodingSchema, framingSchema, SinkEncoder } from '../support/encoding.js';
import { effectiveProxy, ProxiedDispatchers } from '../support/proxy.js';
import { realTimer, RetryPolicy, type RetryTimer } from '../support/retry.js';
import { clientTlsOptions, tlsClientSchema, tlsFiles } from '../support/tls.js';
import { EventTemplate } from '../support/event-template.js';
import { templateOption } from '../../config/template.js';

const METHODS = ['delete', 'get', 'head', 'options', 'patch', 'post', 'put', 'trace'] as const;

/** An http(s) URI, where `{{ field }}` is rendered per event (`%` stays percent-encoding, not strftime); a
 * template is checked for its scheme here, rendered URIs when sent. */
const uri = templateOption(false).refine(
  (text) =>
    text.includes('{{')
      ? /^https?:\/\//i.test(text)
      : URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol),
  { message: 'expected an http:// or https:// URI' },
);

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
    request: requestSchema('adaptive')
      .extend({ headers: z.record(z.string(), z.string()).default({}) })
      .prefault({}),
    retry_strategy: z
      .discriminatedUnion('type', [
        z.strictObject({ type: z.enum(['default', 'all', 'none']) }),
        z.strictObject({ type: z.literal('custom'), status_codes: z.array(z.number().int()) }),
      ])
      .default({ type: 'default' }),
    // undici negotiates ALPN itself: HTTP/1.1, and HTTP/2 when `alpn_protocols` lists "h2".
    tls: tlsClientSchema.extend({ alpn_protocols: z.array(z.enum(['http/1.1', 'h2'])).optional() }).optional(),
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

/** undici, imported when an http sink is built: loading it costs start-up time every other pipeline would pay. */
type Undici = typeof import('undici');

/** `answered`: the server answered (with a status that is not a success), rather than the request failing. */
type Outcome = { delivered: true } | { delivered: false; retry: boolean; reason: string; answered: boolean };

class HttpSink implements Sink {
  /** A batcher per URI the events render to (one for a fixed `uri`). */
  private readonly batchers = new Map<string, Batcher>();
  private readonly concurrency: ConcurrencyLimit;
  private readonly inFlight: InFlight;
  private readonly rateLimit: RateLimit;
  private readonly dispatchers: ProxiedDispatchers;
  private readonly headers: Record<string, string>;
  /** How the JSON codec's framed events become one body (Vector's HTTP encoder). */
  private readonly jsonBody: 'array' | 'ndjson' | undefined;
  /** Events written and neither delivered nor given up yet: gathered, in flight or waiting to retry. */
  private pending = 0;
  /** Aborted by `kill`: requests and retry waits stop. */
  private readonly killed = new AbortController();

  constructor(
    private readonly options: HttpOptions,
    private readonly encoder: SinkEncoder,
    private readonly env: ComponentEnv,
    private readonly undici: Undici,
    private readonly timer: RetryTimer,
    tls: ConnectionOptions,
    private readonly uri: EventTemplate,
  ) {
    this.concurrency = concurrencyLimit(options.request);
    this.inFlight = new InFlight(this.concurrency);
    this.rateLimit = new RateLimit(options.request);
    this.dispatchers = new ProxiedDispatchers(undici, effectiveProxy(env.globals.proxy, env.proxy), {
      connections: maxConcurrency(options.request),
      tls,
      allowH2: options.tls?.alpn_protocols?.includes('h2') ?? false,
    });
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

  async write(batch: EventBatch): Promise<void> {
    const fixed = this.uri.fixedText;
    if (fixed !== undefined) {
      this.pending += batch.count;
      return this.batcherFor(fixed).add(batch);
    }
    // Each group of events rendering to one URI carries the batch's finalizer (events that did not render
    // were counted and dropped).
    const groups = this.uri.group(batch, this.env);
    const { finalizer } = batch;
    const added: Promise<void>[] = [];
    for (const [uri, events] of groups) {
      finalizer?.hold();
      this.pending += events.count;
      added.push(this.batcherFor(uri).add({ ...events, finalizer }));
    }
    finalizer?.release();
    await Promise.all(added);
  }

  private batcherFor(uri: string): Batcher {
    let batcher = this.batchers.get(uri);
    if (batcher === undefined) {
      const made = new Batcher(batchLimits(this.options.batch), async (parts, events) => {
        await this.inFlight.start(() => this.send(uri, parts, events));
        // A rendered URI's batcher goes once it has nothing gathered, as Vector expires idle partitions: a
        // template of many values must not keep one per value for ever (its requests are `inFlight`'s).
        if (this.uri.fixedText === undefined && made.isEmpty && this.batchers.get(uri) === made)
          this.batchers.delete(uri);
      });
      this.batchers.set(uri, (batcher = made));
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

  /** A HEAD request to `healthcheck.uri` must succeed; without one, the sink is healthy (as in Vector). */
  async healthcheck(check: HealthcheckOptions): Promise<void> {
    if (check.uri === undefined) return;
    const response = await this.undici.request(check.uri, {
      method: 'HEAD',
      headers: authHeader(this.options.auth),
      dispatcher: this.dispatchers.for(check.uri),
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

  /** Sends one batch of events, retrying as configured; never rejects. Once killed, it stops without
   * counting: `kill` counted what was pending. */
  private async send(uri: string, parts: EventBatch[], events: number): Promise<void> {
    if (this.killed.signal.aborted) return;
    // A rendered template that is no URI: no request can carry these events.
    if (!URL.canParse(uri)) return this.giveUp(parts, events, 'request_failed', `invalid URI "${uri}"`, 'rejected');
    let body: Uint8Array;
    try {
      body = await compress(this.options.compression, this.body(parts));
    } catch (error) {
      this.giveUp(parts, events, 'encoder_failed', `Failed building the request body: ${String(error)}`);
      return;
    }
    const retries = new RetryPolicy(this.options.request, this.timer.random);
    for (let attempt = 1; ; attempt++) {
      await this.rateLimit.take();
      if (this.killed.signal.aborted) return;
      const started = performance.now();
      const outcome = await this.attempt(uri, body);
      if (this.killed.signal.aborted) return;
      this.concurrency.finished(performance.now() - started, !outcome.delivered && outcome.retry);
      if (outcome.delivered) {
        this.pending -= events;
        this.env.telemetry.sentRaw(body.length);
        for (const part of parts) part.finalizer?.release();
        return;
      }
      const delay = outcome.retry ? retries.nextDelay() : undefined;
      if (delay === undefined) {
        // As in Vector, events the server refused outright are rejected, the others errored.
        const status = outcome.answered && !outcome.retry ? 'rejected' : 'errored';
        this.giveUp(
          parts,
          events,
          'request_failed',
          outcome.retry ? `${outcome.reason}; retries exhausted` : outcome.reason,
          status,
        );
        return;
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

  private async attempt(uri: string, body: Uint8Array): Promise<Outcome> {
    const { method } = this.options;
    try {
      const response = await this.undici.request(uri, {
        method: method.toUpperCase() as Dispatcher.HttpMethod,
        headers: this.headers,
        body,
        dispatcher: this.dispatchers.for(uri),
        signal: AbortSignal.any([AbortSignal.timeout(this.options.request.timeout_secs * 1000), this.killed.signal]),
      });
      await response.body.dump();
      const status = response.statusCode;
      if (status >= 200 && status < 300) return { delivered: true };
      return {
        delivered: false,
        retry: retriable(status, this.options.retry_strategy),
        reason: `HTTP status ${status}`,
        answered: true,
      };
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? 'request timed out'
          : `request failed: ${describe(error)}`;
      return { delivered: false, retry: this.options.retry_strategy.type !== 'none', reason, answered: false };
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

  private giveUp(
    parts: EventBatch[],
    events: number,
    errorType: string,
    reason: string,
    status: BatchStatus = 'errored',
  ): void {
    this.pending -= events;
    for (const part of parts) part.finalizer?.release(status);
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
  files: (options) => tlsFiles(options.tls),
  inputs: () => ['log', 'metric', 'trace'],
  build: (parsed, env) => buildHttpSink(parsed, env),
};

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildHttpSink(parsed: HttpOptions, env: ComponentEnv, timer = realTimer): Promise<Sink> {
  const encoder = new SinkEncoder(
    encodeOptions(parsed.encoding, parsed.framing, 'message', env.globals.log_schema.message_key),
    env,
  );
  const uri = await EventTemplate.build('uri', parsed.uri, env, { strftime: false });
  return new HttpSink(
    parsed,
    encoder,
    env,
    await import('undici'),
    timer,
    await clientTlsOptions(parsed.tls, env.log),
    uri,
  );
}

export default http;
