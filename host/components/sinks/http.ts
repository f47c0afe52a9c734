// The `http` sink: events gathered into batches (`batch.*`), each sent as one request body, encoded,
// wrapped and compressed as Vector does; requests, concurrency, retries, TLS and proxies are those of every
// batching HTTP sink (support/http-batch-sink.ts), with `retry_strategy` choosing the statuses retried. A
// `uri` with fields in it (`{{ team }}`) is rendered per event (support/event-template.ts), and events are
// batched per URI; `healthcheck.uri` is reached as the requests are.

import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { ComponentEnv, HealthcheckOptions, Sink, SinkDefinition } from '../component.js';
import type { EventBatch } from '../../topology/batch.js';
import { compress, CONTENT_ENCODING } from '../support/compression.js';
import { encodeOptions, encodingSchema, framingSchema, SinkEncoder } from '../support/encoding.js';
import {
  authHeader,
  authSchema,
  batchSchema,
  commonSettings,
  HttpBatchSink,
  type HttpRequest,
  httpClient,
  type HttpClient,
  httpTlsSchema,
  requestWithHeadersSchema,
  retriableStatus,
  retryStrategySchema,
} from '../support/http-batch-sink.js';
import { realTimer, type RetryTimer } from '../support/retry.js';
import { tlsFiles } from '../support/tls.js';
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

/** The http sink's options; the opentelemetry sink takes them under `protocol` (`type: http`). */
export const httpSinkFields = {
  uri,
  method: z.enum(METHODS).default('post'),
  auth: authSchema.optional(),
  compression: z.enum(['none', 'gzip', 'zlib', 'zstd']).default('none'),
  encoding: encodingSchema,
  framing: framingSchema.optional(),
  payload_prefix: z.string().default(''),
  payload_suffix: z.string().default(''),
  batch: batchSchema({ max_bytes: 10_000_000, timeout_secs: 1 }),
  request: requestWithHeadersSchema,
  retry_strategy: retryStrategySchema,
  tls: httpTlsSchema.optional(),
};

/** `payload_prefix` and `payload_suffix` must wrap a JSON array into JSON. */
export function checkPayloadWrapper(ctx: z.core.ParsePayload<{ payload_prefix: string; payload_suffix: string }>) {
  const { payload_prefix: prefix, payload_suffix: suffix } = ctx.value;
  if ((prefix !== '' || suffix !== '') && !isJson(`${prefix}[]${suffix}`)) {
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      path: ['payload_prefix'],
      message: 'payload_prefix and payload_suffix must together wrap the JSON array of events into valid JSON',
    });
  }
}

const options = z.strictObject(httpSinkFields).check(checkPayloadWrapper);

type HttpOptions = z.infer<typeof options>;

/** How batches become a body: the codec module (`encoding`), or an encoder of the sink's own (the `otlp`
 * codec) with its content type. */
export type BodyEncoder = SinkEncoder | { encode(batch: EventBatch): Uint8Array; readonly contentType: string };

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
      return retriableStatus(status);
  }
}

class HttpSink extends HttpBatchSink {
  private readonly headers: Record<string, string>;
  /** How the JSON codec's framed events become one body (Vector's HTTP encoder). */
  private readonly jsonBody: 'array' | 'ndjson' | undefined;

  constructor(
    private readonly options: HttpOptions,
    private readonly encoder: BodyEncoder,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
    private readonly uri: EventTemplate,
  ) {
    super(env, client, timer, {
      ...commonSettings(options, client),
      retryFailedRequests: options.retry_strategy.type !== 'none',
      // Events are batched per URI they render to.
      partitioned: uri.fixedText === undefined,
    });
    const framing = 'options' in encoder ? encoder.options.framing! : undefined;
    const json = 'options' in encoder && encoder.options.codec === 'json';
    this.jsonBody =
      !json || framing === undefined
        ? undefined
        : framing.method === 'character_delimited' && framing.delimiter === ','
          ? 'array'
          : framing.method === 'newline_delimited'
            ? 'ndjson'
            : undefined;
    this.headers = { ...this.contentHeaders(), ...authHeader(options.auth), ...options.request.headers };
  }

  protected override partition(batch: EventBatch): Map<string, EventBatch> {
    return this.uri.group(batch, this.env);
  }

  protected override retriable(status: number): boolean {
    return retriable(status, this.options.retry_strategy);
  }

  protected async buildRequest(key: string, parts: EventBatch[]): Promise<HttpRequest> {
    return {
      uri: this.uri.fixedText ?? key,
      method: this.options.method.toUpperCase() as Dispatcher.HttpMethod,
      headers: this.headers,
      body: await compress(this.options.compression, this.body(parts)),
    };
  }

  /** A HEAD request to `healthcheck.uri` must succeed; without one, the sink is healthy (as in Vector). */
  async healthcheck(check: HealthcheckOptions): Promise<void> {
    if (check.uri === undefined) return;
    const response = await this.fetch(check.uri, { method: 'HEAD', headers: authHeader(this.options.auth) });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode >= 300)
      throw new Error(`${check.uri} answered HTTP ${response.statusCode}`);
  }

  private contentHeaders(): Record<string, string> {
    const codec = 'options' in this.encoder ? this.encoder.options.codec : undefined;
    const headers: Record<string, string> = {};
    const contentType =
      'contentType' in this.encoder
        ? this.encoder.contentType
        : this.jsonBody === 'array'
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

/** The sink; `timer`: how it waits between retries (tests drive their own); `encoder`: the body's encoder
 * when not `encoding`'s codec. */
export async function buildHttpSink(
  parsed: HttpOptions,
  env: ComponentEnv,
  timer = realTimer,
  encoder: BodyEncoder = new SinkEncoder(
    encodeOptions(parsed.encoding, parsed.framing, 'message', env.globals.log_schema.message_key),
    env,
  ),
): Promise<Sink> {
  const uri = await EventTemplate.build('uri', parsed.uri, env, { strftime: false });
  return new HttpSink(parsed, encoder, env, await httpClient(parsed.tls, env), timer, uri);
}

export default http;
