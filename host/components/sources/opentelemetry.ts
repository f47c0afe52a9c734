// `opentelemetry`: OTLP export requests, over HTTP (`http.address`: POST /v1/logs, /v1/metrics, /v1/traces,
// `application/x-protobuf` or OTLP/JSON `application/json`, bodies decompressed by `Content-Encoding`) and over
// gRPC (`grpc.address`: the collector's LogsService, MetricsService and TraceService). Each signal leaves
// through its output, `logs`, `metrics` and `traces` as Vector names them, converted as Vector does
// (support/otlp.ts), or kept as the request itself where `use_otlp_decoding` says so (metrics then as logs).
// The answer, an empty export response (full success), comes once downstream took the events, or with
// acknowledgements once the sinks delivered them; when a sink gave them up or rejected them, HTTP 500 with a
// google.rpc.Status, gRPC INTERNAL or DATA_LOSS, as Vector answers. An undecodable request gets 400 or
// INVALID_ARGUMENT, and a request during shutdown 503 or UNAVAILABLE.

import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type * as Grpc from '@grpc/grpc-js';
import { z } from 'zod';
import { encodeBatch, type InputEvent } from '../../../abi/batch.js';
import { type BatchStatus, splitBatch, type EventBatch } from '../../topology/batch.js';
import type { ComponentEnv, Source, SourceContext, SourceDefinition } from '../component.js';
import { logNamespaceOf, logNamespaceOption, type Stamp, type StampOrigin, stampAt } from '../support/decoding.js';
import { decompressBody, DecompressionError, readBody } from '../support/decompression.js';
import { parseListenAddress } from '../support/listeners.js';
import { metricEvent } from '../support/metric.js';
import {
  decodeRequest,
  encodeResponse,
  encodeStatus,
  logEvents,
  messageToRemap,
  metrics,
  otlpProtocol,
  SIGNALS,
  type Signal,
  traceEvents,
} from '../support/otlp.js';
import { SourceAcknowledgements } from '../support/source-acknowledgements.js';
import { reportHandshakeFailures, serverTlsOptions, tlsEnableableSchema, tlsFiles } from '../support/tls.js';
import { NameSelection } from './http_server.js';

const perSignal = z.strictObject({
  logs: z.boolean().default(false),
  metrics: z.boolean().default(false),
  traces: z.boolean().default(false),
});

const options = z.strictObject({
  grpc: z.strictObject({
    address: z.string(),
    tls: tlsEnableableSchema.optional(),
    keepalive: z
      .strictObject({
        max_connection_age_secs: z.number().int().positive().optional(),
        max_connection_age_grace_secs: z.number().int().nonnegative().optional(),
      })
      .default({}),
  }),
  http: z.strictObject({
    address: z.string(),
    tls: tlsEnableableSchema.optional(),
    keepalive: z
      .strictObject({
        max_connection_age_secs: z.number().int().nonnegative().default(300),
        max_connection_age_jitter_factor: z.number().min(0).max(1).default(0.1),
      })
      .default({ max_connection_age_secs: 300, max_connection_age_jitter_factor: 0.1 }),
    headers: z.array(z.string()).default([]),
  }),
  // `true` or `false` for every signal, or a table per signal (Vector 0.54).
  use_otlp_decoding: z
    .union([z.boolean().transform((all) => ({ logs: all, metrics: all, traces: all })), perSignal])
    .default({ logs: false, metrics: false, traces: false }),
  log_namespace: logNamespaceOption,
});
type OpentelemetryOptions = z.infer<typeof options>;

const SOURCE_TYPE = 'opentelemetry';

/** Why a request was refused, and its answer's HTTP status and gRPC code. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly grpcCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** gRPC status codes (grpc-js' `status`, not imported at start-up). */
const GRPC = { INVALID_ARGUMENT: 3, INTERNAL: 13, UNAVAILABLE: 14, DATA_LOSS: 15 } as const;

/** What each request's events become, and how they are sent on and answered. */
class Receiver {
  private readonly origin: StampOrigin;
  private readonly acknowledgements: SourceAcknowledgements;
  private readonly headers: NameSelection;
  /** Requests' events being handed downstream: the source's run ends once they are. */
  private readonly sending = new Set<Promise<void>>();
  context: SourceContext | undefined;
  stopping = false;

  constructor(
    private readonly options: OpentelemetryOptions,
    private readonly env: ComponentEnv,
  ) {
    this.origin = { sourceType: SOURCE_TYPE, logNamespace: logNamespaceOf(env, options.log_namespace) };
    this.acknowledgements = new SourceAcknowledgements(env.acknowledgements);
    this.headers = new NameSelection(options.http.headers, true);
  }

  /** A decoded request's events, as the signal's conversion (or `use_otlp_decoding`) makes them. */
  private events(signal: Signal, body: Uint8Array, json: boolean, headers?: Record<string, string>): InputEvent[] {
    let request: ReturnType<typeof decodeRequest>;
    try {
      request = decodeRequest(signal, body, json);
    } catch (error) {
      throw this.refuse(400, GRPC.INVALID_ARGUMENT, `Could not decode request: ${(error as Error).message}`);
    }
    let events: InputEvent[];
    if (this.options.use_otlp_decoding[signal]) {
      const event = messageToRemap(request, otlpProtocol().request[signal]);
      // As Vector's protobuf decoding: legacy logs get the time now at the timestamp key, and nothing else.
      if (signal !== 'traces' && this.origin.logNamespace === 'legacy')
        stampAt(event as Stamp, this.env.globals.log_schema.timestamp_key, new Date());
      events = [{ kind: signal === 'traces' ? 'trace' : 'log', event }];
    } else if (signal === 'logs') events = logEvents(request, this.origin, this.env);
    else if (signal === 'metrics') events = metrics(request).map((metric) => metricEvent(metric));
    else events = traceEvents(request);
    if (headers !== undefined) this.addHeaders(events, headers);
    return events;
  }

  /** `http.headers` into the events (Vector's `add_headers`): legacy log events get each at their root where
   * absent, the others at `%opentelemetry.headers.<name>` (metrics and traces in their metadata). */
  private addHeaders(events: InputEvent[], headers: Record<string, string>): void {
    const stamp: Stamp = {};
    const origin = { sourceType: SOURCE_TYPE, logNamespace: 'vector' } as const;
    this.headers.stamp(stamp, origin, 'headers', (name) => headers[name.toLowerCase()], Object.entries(headers));
    const selected = (stamp[SOURCE_TYPE] as Stamp | undefined)?.headers as Stamp | undefined;
    if (selected === undefined) return;
    for (const event of events) {
      if (event.kind === 'log' && this.origin.logNamespace === 'legacy') {
        const fields = event.event as Stamp;
        for (const [name, value] of Object.entries(selected)) if (!(name in fields)) fields[name] = value;
      } else {
        const metadata = (event.metadata ??= {}) as Stamp;
        ((metadata[SOURCE_TYPE] ??= {}) as Stamp).headers = selected;
      }
    }
  }

  /** Vector's `HttpBadRequest`: counted, logged, answered. */
  private refuse(status: number, grpcCode: number, message: string): Refusal {
    this.env.telemetry.error('request_failed', 'receiving');
    this.env.log.warn(`Request rejected (${status}): ${message}`, {
      stage: 'receiving',
      internal_log_rate_key: 'request_rejected',
    });
    return new Refusal(status, grpcCode, message);
  }

  /** Decodes a request and sends its events on `signal`'s output; resolves once they are delivered (with
   * acknowledgements) or taken, rejects with the refusal to answer otherwise. */
  async receive(signal: Signal, body: Uint8Array, json: boolean, headers?: Record<string, string>): Promise<void> {
    const context = this.context;
    if (this.stopping || context === undefined) throw new Refusal(503, GRPC.UNAVAILABLE, 'Service is shutting down');
    this.env.telemetry.receivedRaw(body.byteLength);
    const events = this.events(signal, body, json, headers);
    if (events.length === 0) return;
    const batches = splitBatch({ bytes: encodeBatch(events, 0), count: events.length }, this.env.chunkSize);
    const output = { send: (batch: EventBatch) => context.send(batch, signal), shutdown: context.shutdown };
    let answered: (status: BatchStatus) => void = () => {};
    const done = new Promise<BatchStatus>((resolve) => (answered = resolve));
    const sent = this.acknowledgements.send(output, batches, answered);
    this.sending.add(sent);
    await sent.finally(() => this.sending.delete(sent));
    const status = await done;
    if (status === 'errored') throw new Refusal(500, GRPC.INTERNAL, 'Error delivering contents to sink');
    if (status === 'rejected') throw new Refusal(500, GRPC.DATA_LOSS, 'Contents failed to deliver to sink');
  }

  async sent(): Promise<void> {
    await Promise.allSettled(this.sending);
  }

  settled(): Promise<void> {
    return this.acknowledgements.settled();
  }
}

const SIGNAL_PATHS = new Map<string, Signal>(SIGNALS.map((signal) => [`/v1/${signal}`, signal]));

async function httpServer(options: OpentelemetryOptions['http'], receiver: Receiver, env: ComponentEnv) {
  const { max_connection_age_secs: maxAge, max_connection_age_jitter_factor: jitter } = options.keepalive;
  const closeAfter = new WeakMap<Socket, number>();

  const answer = (response: ServerResponse, status: number, json: boolean, body: Uint8Array) => {
    response.writeHead(status, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
    response.end(body);
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const signal = SIGNAL_PATHS.get(url.pathname);
    if (signal === undefined) return void response.writeHead(404).end('Not found');
    if (request.method !== 'POST') return void response.writeHead(405).end('Method not allowed');
    const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (contentType !== 'application/x-protobuf' && contentType !== 'application/json')
      return void response.writeHead(415).end(`Unsupported content type "${contentType}"`);
    const json = contentType === 'application/json';
    // Vector's `keepalive.max_connection_age_secs`: an older connection is closed after this answer.
    if (Date.now() >= (closeAfter.get(request.socket) ?? Infinity)) response.shouldKeepAlive = false;
    try {
      const body = await decompressBody(
        await readBody(request, env.maxDecompressedSize),
        request.headers['content-encoding'],
        env.maxDecompressedSize,
      );
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value!]),
      );
      await receiver.receive(signal, body, json, headers);
      answer(response, 200, json, encodeResponse(signal, json));
    } catch (error) {
      if (error instanceof DecompressionError || error instanceof Refusal)
        return answer(response, error.status, json, encodeStatus(error.message, json));
      throw error;
    }
  };

  const tls = await serverTlsOptions(options.tls);
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    if (receiver.stopping) response.shouldKeepAlive = false;
    handle(request, response).catch((error: unknown) => {
      env.log.error(`Request failed: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  };
  const server: Server | HttpsServer = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
  if (tls) reportHandshakeFailures(server as HttpsServer, env);
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) =>
    closeAfter.set(socket, Date.now() + maxAge * 1000 * (1 + jitter * (2 * Math.random() - 1))),
  );
  await listen(options.address, 'http', async ({ host, port }) => {
    server.listen(port, host);
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
  });
  return {
    /** Stops accepting connections; those open close once their answers are given. */
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    },
  };
}

/** Listens on `address`, or fails naming the option and why. */
async function listen(
  address: string,
  option: 'http' | 'grpc',
  bind: (at: { host: string; port: number }) => Promise<void>,
): Promise<void> {
  try {
    await bind(parseListenAddress(address));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? 'address already in use' : (error as Error).message;
    throw new Error(`option "${option}.address": could not listen on ${address}: ${reason}`);
  }
}

async function grpcServer(options: OpentelemetryOptions['grpc'], receiver: Receiver, env: ComponentEnv) {
  const grpc = (await import('@grpc/grpc-js')) as typeof Grpc;
  const { max_connection_age_secs: maxAge, max_connection_age_grace_secs: grace } = options.keepalive;
  const server = new grpc.Server({
    'grpc.max_receive_message_length': env.maxDecompressedSize,
    // As Vector: connections live `max_connection_age_secs`, then `max_connection_age_grace_secs` to finish.
    ...(maxAge !== undefined && { 'grpc.max_connection_age_ms': maxAge * 1000 }),
    ...(maxAge !== undefined && grace !== undefined && { 'grpc.max_connection_age_grace_ms': grace * 1000 }),
  });
  const protocol = otlpProtocol();
  for (const signal of SIGNALS) {
    const service = protocol.service[signal];
    const raw = (bytes: Buffer) => bytes;
    server.addService(
      {
        Export: {
          path: `/${service.fullName.slice(1)}/Export`,
          requestStream: false,
          responseStream: false,
          requestSerialize: raw,
          requestDeserialize: raw,
          responseSerialize: raw,
          responseDeserialize: raw,
        },
      },
      {
        Export: (call: Grpc.ServerUnaryCall<Buffer, Buffer>, callback: Grpc.sendUnaryData<Buffer>) => {
          receiver.receive(signal, call.request, false).then(
            () => callback(null, Buffer.from(encodeResponse(signal, false))),
            (error: unknown) =>
              callback({
                code: error instanceof Refusal ? error.grpcCode : GRPC.INTERNAL,
                details: (error as Error).message,
              }),
          );
        },
      },
    );
  }
  const tls = await serverTlsOptions(options.tls);
  if (tls?.pfx !== undefined)
    throw new Error(
      'option "grpc.tls.crt_file": the gRPC server takes a PEM certificate and key (tls.key_file), not PKCS#12',
    );
  const credentials = tls
    ? grpc.ServerCredentials.createSsl(
        tls.ca === undefined ? null : Buffer.from([tls.ca].flat().join('\n')),
        [
          {
            private_key: Buffer.from(tls.key as string | Buffer),
            cert_chain: Buffer.from(tls.cert as string | Buffer),
          },
        ],
        tls.requestCert === true,
      )
    : grpc.ServerCredentials.createInsecure();
  await listen(options.address, 'grpc', async ({ host, port }) => {
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(`${host.includes(':') ? `[${host}]` : host}:${port}`, credentials, (error: Error | null) =>
        error ? reject(error) : resolve(),
      ),
    );
  });
  return {
    /** Refuses new calls, waits for those under way (their answers). */
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

async function build(options: OpentelemetryOptions, env: ComponentEnv): Promise<Source> {
  const receiver = new Receiver(options, env);
  const http = await httpServer(options.http, receiver, env);
  let grpc: Awaited<ReturnType<typeof grpcServer>>;
  try {
    grpc = await grpcServer(options.grpc, receiver, env);
  } catch (error) {
    await http.close();
    throw error;
  }
  return {
    async run(context) {
      receiver.context = context;
      if (!context.shutdown.aborted) await once(context.shutdown, 'abort');
      receiver.stopping = true;
      await receiver.sent();
    },
    /** Every request under way is answered (with acknowledgements, once its events are delivered), then the
     * servers close. */
    async acknowledged() {
      await receiver.settled();
      await Promise.all([http.close(), grpc.close()]);
    },
  };
}

const definition: SourceDefinition<OpentelemetryOptions> = {
  kind: 'source',
  type: SOURCE_TYPE,
  description: 'Receive OTLP data through gRPC or HTTP.',
  options,
  files: (options) => [...tlsFiles(options.grpc.tls), ...tlsFiles(options.http.tls)],
  outputs: (options) => [
    { name: 'logs', kinds: ['log'] },
    { name: 'metrics', kinds: [options.use_otlp_decoding.metrics ? 'log' : 'metric'] },
    { name: 'traces', kinds: ['trace'] },
  ],
  build,
};

export default definition;
