// `vector`: events to Vector instances (their `vector` source) or svc aggregators, over Vector's gRPC protocol
// version 2 (support/vector-protocol.ts). Events gather into batches (`batch.*`, 1000 events or 1 s), each
// sent as one PushEvents request with support/http-batch-sink.ts's concurrency, rate limit and retries
// (`request.*`); a batch is delivered (its finalizers released) once the receiver answered OK. Retried: every
// gRPC status but those Vector deems final (NOT_FOUND, INVALID_ARGUMENT, ALREADY_EXISTS, PERMISSION_DENIED,
// OUT_OF_RANGE, UNIMPLEMENTED, UNAUTHENTICATED, DATA_LOSS). `compression: gzip` compresses the messages.
//
// Endpoints: `address` (deprecated by Vector) or `routing.endpoints`, as `host:port` (http, or https with
// `tls.enabled`) or a URI. With several, `routing.strategy: load_balance` spreads the requests over the
// healthy ones: an endpoint whose request failed with a retriable status, or whose HealthCheck answers
// NOT_SERVING, is out until a HealthCheck after `routing.health`'s backoff (1 s, doubling up to
// `retry_max_duration_secs`) answers SERVING; the failed request is retried on another. Beyond Vector, the
// endpoints in rotation are asked every HEALTH_CHECK_INTERVAL_MS, so that an aggregator shutting down (svc's
// `vector` source answers NOT_SERVING then) is left before a request fails there. `failover` and
// `failover_primary` use one endpoint at a time (one request at a time), moving to the next on a failure;
// `failover_primary` goes back to the first configured whenever a request starts.

import { createSecureContext } from 'node:tls';
import type * as Grpc from '@grpc/grpc-js';
import { z } from 'zod';
import { decodeBatch } from '../../../abi/batch.js';
import type { EventBatch } from '../../topology/batch.js';
import { concatBatches } from '../../topology/batch.js';
import type { ComponentEnv, Sink, SinkDefinition } from '../component.js';
import { batchLimits } from '../support/batcher.js';
import {
  httpClient,
  type HttpRequest,
  HttpBatchSink,
  type Outcome,
  requestSchema,
} from '../support/http-batch-sink.js';
import type { RetryTimer } from '../support/retry.js';
import { realTimer } from '../support/retry.js';
import { clientTlsOptions, tlsEnableableSchema, tlsFiles } from '../support/tls.js';
import {
  decodeHealthCheckResponse,
  EMPTY_MESSAGE,
  encodePushEvents,
  ServingStatus,
  VECTOR_SERVICE,
} from '../support/vector-protocol.js';

/** An endpoint: `host:port` gets http://, or https:// with TLS (Vector's `with_default_scheme`); a URI must
 * be http(s) and name its port. Undefined when it is neither. */
function endpointUrl(text: string, tls: boolean): URL | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `${tls ? 'https' : 'http'}://${text}`;
  if (!URL.canParse(withScheme)) return undefined;
  const url = new URL(withScheme);
  return ['http:', 'https:'].includes(url.protocol) && /:\d+$/.test(url.host) ? url : undefined;
}

const endpoint = z.string().refine((text) => endpointUrl(text, false) !== undefined, {
  message: 'expected host:port or an http(s) URI with a port',
});

const routingSchema = z.strictObject({
  endpoints: z.array(endpoint).default([]),
  strategy: z.enum(['load_balance', 'failover', 'failover_primary']).default('load_balance'),
  health: z
    .strictObject({
      retry_initial_backoff_secs: z.number().int().positive().default(1),
      retry_max_duration_secs: z.number().int().positive().default(3600),
    })
    .prefault({}),
});
type Routing = z.infer<typeof routingSchema>;

const options = z
  .strictObject({
    version: z.literal('2').optional(),
    address: endpoint.optional(),
    routing: routingSchema.optional(),
    // `true` is gzip, as Vector reads it.
    compression: z
      .union([z.boolean().transform((gzip) => (gzip ? 'gzip' : 'none')), z.enum(['none', 'gzip', 'zstd'])])
      .default('none'),
    batch: z
      .strictObject({
        max_bytes: z.number().int().positive().optional(),
        max_events: z.number().int().positive().default(1000),
        timeout_secs: z.number().positive().default(1),
      })
      .prefault({}),
    request: requestSchema,
    tls: tlsEnableableSchema.optional(),
    keepalive: z
      .strictObject({
        interval_secs: z.number().int().positive().default(60),
        timeout_secs: z.number().int().positive().default(20),
      })
      .optional(),
  })
  .check((ctx) => {
    const { address, routing } = ctx.value;
    const issue = (path: string[], message: string) =>
      ctx.issues.push({ code: 'custom', input: ctx.value, path, message });
    // Vector's checks, with its messages.
    if (address !== undefined && routing !== undefined)
      issue(
        ['address'],
        '`address` and `routing` options are mutually exclusive. Please use `routing.endpoints` for multiple Vector endpoints.',
      );
    if (address === undefined && routing === undefined)
      issue(['address'], 'No Vector endpoint configured. Please set `address` or `routing.endpoints`.');
    if (routing !== undefined && routing.endpoints.length === 0)
      issue(['routing', 'endpoints'], '`routing.endpoints` must contain at least one endpoint.');
    // grpc-js compresses messages with gzip or deflate only.
    if (ctx.value.compression === 'zstd') issue(['compression'], 'zstd is not available in svc: use gzip');
  });
type VectorSinkOptions = z.infer<typeof options>;

/** How often endpoints in rotation are asked for their health (several endpoints, load balanced). */
const HEALTH_CHECK_INTERVAL_MS = 5000;

/** gRPC statuses Vector does not retry. */
const FINAL_STATUSES = new Set([
  'NOT_FOUND',
  'INVALID_ARGUMENT',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'UNAUTHENTICATED',
  'DATA_LOSS',
]);

/** Statuses of a request that got no answer from the receiver. */
const UNANSWERED = new Set(['DEADLINE_EXCEEDED', 'UNAVAILABLE', 'CANCELLED']);

interface Endpoint {
  readonly name: string;
  readonly client: Grpc.Client;
  healthy: boolean;
  /** The wait before the next HealthCheck of an endpoint out of rotation. */
  backoffMs: number;
  probe?: NodeJS.Timeout;
  /** A HealthCheck of it is under way. */
  checking?: boolean;
}

/** The endpoints and which are in rotation. */
class Endpoints {
  private next = 0;
  private readonly checks: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly all: readonly Endpoint[],
    private readonly strategy: Routing['strategy'],
    private readonly health: Routing['health'],
    private readonly timeoutMs: number,
    private readonly log: ComponentEnv['log'],
  ) {
    if (all.length > 1 && strategy === 'load_balance')
      this.checks = setInterval(() => {
        for (const endpoint of this.all) if (endpoint.healthy) void this.check(endpoint);
      }, HEALTH_CHECK_INTERVAL_MS).unref();
  }

  /** The endpoint for the next attempt: round robin over the healthy ones (all, when none is); the failover
   * strategies keep one until it fails. */
  pick(): Endpoint {
    if (this.strategy !== 'load_balance') return this.all[this.next % this.all.length]!;
    const healthy = this.all.filter((endpoint) => endpoint.healthy);
    const from = healthy.length > 0 ? healthy : this.all;
    return from[this.next++ % from.length]!;
  }

  /** A request starts (not its retries): `failover_primary` tries the first endpoint again. */
  started(): void {
    if (this.strategy === 'failover_primary') this.next = 0;
  }

  /** An attempt at `endpoint` failed retriably: it leaves the rotation (load balance) or the next one takes
   * over (failover). */
  failed(endpoint: Endpoint, reason: string): void {
    if (this.strategy !== 'load_balance') {
      if (this.all[this.next % this.all.length] === endpoint) this.next++;
      return;
    }
    if (this.all.length === 1 || !endpoint.healthy) return;
    endpoint.healthy = false;
    endpoint.backoffMs = this.health.retry_initial_backoff_secs * 1000;
    this.log.warn('Endpoint is unhealthy; taken out of rotation.', { endpoint: endpoint.name, reason });
    this.scheduleProbe(endpoint);
  }

  private scheduleProbe(endpoint: Endpoint): void {
    if (this.closed) return;
    endpoint.probe = setTimeout(async () => {
      if (await this.check(endpoint)) return;
      endpoint.backoffMs = Math.min(endpoint.backoffMs * 2, this.health.retry_max_duration_secs * 1000);
      this.scheduleProbe(endpoint);
    }, endpoint.backoffMs).unref();
  }

  /** Asks `endpoint` for its health; it comes back into rotation when SERVING and leaves it otherwise. */
  private async check(endpoint: Endpoint): Promise<boolean> {
    if (endpoint.checking) return endpoint.healthy;
    endpoint.checking = true;
    const problem = await healthCheck(endpoint.client, this.timeoutMs).then(
      () => undefined,
      (error: Error) => error.message,
    );
    endpoint.checking = false;
    if (this.closed) return false;
    if (problem === undefined) {
      if (!endpoint.healthy) this.log.info('Endpoint is healthy again.', { endpoint: endpoint.name });
      endpoint.healthy = true;
      return true;
    }
    if (endpoint.healthy) this.failed(endpoint, problem);
    return false;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.checks);
    for (const endpoint of this.all) {
      clearTimeout(endpoint.probe);
      endpoint.client.close();
    }
  }
}

/** Resolves when the endpoint's HealthCheck answers SERVING. */
function healthCheck(client: Grpc.Client, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      VECTOR_SERVICE.HealthCheck.path,
      VECTOR_SERVICE.HealthCheck.requestSerialize,
      VECTOR_SERVICE.HealthCheck.responseDeserialize,
      EMPTY_MESSAGE,
      { deadline: Date.now() + timeoutMs },
      (error, response) => {
        if (error) return reject(new Error(`HealthCheck failed: ${error.details || error.message}`));
        const status = decodeHealthCheckResponse(response!);
        if (status === ServingStatus.SERVING) resolve();
        else reject(new Error(`HealthCheck answered ${status === ServingStatus.NOT_SERVING ? 'NOT_SERVING' : status}`));
      },
    );
  });
}

class VectorSink extends HttpBatchSink {
  constructor(
    env: ComponentEnv,
    client: Awaited<ReturnType<typeof httpClient>>,
    timer: RetryTimer,
    private readonly options: VectorSinkOptions,
    private readonly routing: Routing,
    private readonly endpoints: Endpoints,
    /** grpc-js's status codes, by number and by name. */
    private readonly statuses: typeof Grpc.status,
  ) {
    super(env, client, timer, {
      request: options.request,
      batch: batchLimits(options.batch),
      tls: {},
      allowH2: false,
      // One endpoint at a time, as Vector's failover strategies serialize requests.
      ...(routing.strategy !== 'load_balance' && { concurrency: 1 }),
      partitioned: false,
    });
  }

  protected override async buildRequest(_key: string, parts: EventBatch[]): Promise<HttpRequest> {
    this.endpoints.started();
    const { events } = decodeBatch(concatBatches(parts).bytes);
    // The endpoint is picked for each attempt; `uri` only names the sink's first one.
    return {
      uri: this.endpoints.all[0]!.name,
      method: 'POST',
      headers: {},
      body: encodePushEvents(events),
    };
  }

  protected override async attempt(request: HttpRequest): Promise<Outcome> {
    const endpoint = this.endpoints.pick();
    const timeoutMs = this.options.request.timeout_secs * 1000;
    const failure = await new Promise<Grpc.ServiceError | undefined>((resolve) => {
      const call = endpoint.client.makeUnaryRequest(
        VECTOR_SERVICE.PushEvents.path,
        VECTOR_SERVICE.PushEvents.requestSerialize,
        VECTOR_SERVICE.PushEvents.responseDeserialize,
        request.body as Buffer,
        { deadline: Date.now() + timeoutMs },
        (error) => resolve(error ?? undefined),
      );
      const cancel = () => call.cancel();
      this.killed.signal.addEventListener('abort', cancel, { once: true });
      call.on('status', () => this.killed.signal.removeEventListener('abort', cancel));
    });
    if (failure === undefined) return { delivered: true };
    const status = this.statuses[failure.code] ?? String(failure.code);
    const retry = !FINAL_STATUSES.has(status);
    const reason = `${endpoint.name}: gRPC status ${status} (${failure.details || failure.message})`;
    if (retry) this.endpoints.failed(endpoint, reason);
    return { delivered: false, retry, reason, answered: !UNANSWERED.has(status) };
  }

  async healthcheck(): Promise<void> {
    const timeoutMs = this.options.request.timeout_secs * 1000;
    // Failover strategies need only their first endpoint, as in Vector.
    const checked = this.routing.strategy === 'load_balance' ? this.endpoints.all : this.endpoints.all.slice(0, 1);
    await Promise.all(
      checked.map((endpoint) =>
        healthCheck(endpoint.client, timeoutMs).catch((error: Error) => {
          throw new Error(`${endpoint.name}: ${error.message}`);
        }),
      ),
    );
  }

  override async close(): Promise<void> {
    await super.close();
    this.endpoints.close();
  }

  override kill(): number {
    const pending = super.kill();
    this.endpoints.close();
    return pending;
  }
}

/** The client credentials for https:// endpoints, from `tls`. */
async function channelCredentials(
  grpc: typeof Grpc,
  tls: VectorSinkOptions['tls'],
  env: ComponentEnv,
): Promise<{ credentials: Grpc.ChannelCredentials; channel: Grpc.ChannelOptions }> {
  const settings = await clientTlsOptions(tls, env.log);
  const { rejectUnauthorized, checkServerIdentity, servername, ...context } = settings;
  return {
    credentials: grpc.credentials.createFromSecureContext(createSecureContext(context), {
      ...(rejectUnauthorized !== undefined && { rejectUnauthorized }),
      ...(checkServerIdentity !== undefined && { checkServerIdentity }),
    }),
    channel: servername === undefined ? {} : { 'grpc.ssl_target_name_override': servername },
  };
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildVectorSink(options: VectorSinkOptions, env: ComponentEnv, timer: RetryTimer): Promise<Sink> {
  const grpc = await import('@grpc/grpc-js');
  const tlsEnabled = options.tls?.enabled ?? false;
  const routing = options.routing ?? routingSchema.parse({ endpoints: [options.address] });
  const urls = routing.endpoints.map((text) => endpointUrl(text, tlsEnabled)!);
  const secure = urls.some((url) => url.protocol === 'https:')
    ? await channelCredentials(grpc, options.tls, env)
    : undefined;
  const channel: Grpc.ChannelOptions = {
    ...secure?.channel,
    ...(options.compression === 'gzip' && { 'grpc.default_compression_algorithm': grpc.compressionAlgorithms.gzip }),
    'grpc.max_send_message_length': -1,
    ...(options.keepalive && {
      'grpc.keepalive_time_ms': options.keepalive.interval_secs * 1000,
      'grpc.keepalive_timeout_ms': options.keepalive.timeout_secs * 1000,
      'grpc.keepalive_permit_without_calls': 1,
    }),
  };
  const endpoints = urls.map(
    (url): Endpoint => ({
      name: url.origin,
      client: new grpc.Client(
        url.host,
        url.protocol === 'https:' ? secure!.credentials : grpc.credentials.createInsecure(),
        channel,
      ),
      healthy: true,
      backoffMs: 0,
    }),
  );
  return new VectorSink(
    env,
    await httpClient(undefined, env),
    timer,
    options,
    routing,
    new Endpoints(endpoints, routing.strategy, routing.health, options.request.timeout_secs * 1000, env.log),
    grpc.status,
  );
}

const vector: SinkDefinition<VectorSinkOptions> = {
  kind: 'sink',
  type: 'vector',
  description: 'Relay observability data to a Vector instance.',
  options,
  files: (parsed) => tlsFiles(parsed.tls),
  inputs: () => ['log', 'metric', 'trace'],
  build: (parsed, env) => buildVectorSink(parsed, env, realTimer),
};

export default vector;
