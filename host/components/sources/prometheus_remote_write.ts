// The `prometheus_remote_write` source, as Vector's: POSTs to `path` on `address` carry a protobuf
// WriteRequest, snappy-compressed unless `Content-Encoding` says otherwise; its series become metrics
// (support/prometheus.ts: typed by the request's metadata, gauges without it; `metadata_conflict_strategy`,
// `skip_nan_values`). The answer is 200 once downstream took the metrics, or with acknowledgements once the
// sinks delivered them (500 when one gave them up, 400 when one rejected them); 400 for a body that does not
// decode, 401 without the `auth` credentials, 404 for another path, 405 for another method, 413 past
// `--max-decompressed-size-bytes`, 415 for an unknown encoding, 503 while shutting down.

import { timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { z } from 'zod';
import { encodeBatch } from '../../../abi/batch.js';
import { type BatchStatus, type EventBatch, splitBatch } from '../../topology/batch.js';
import type { ComponentEnv, Source, SourceContext, SourceDefinition } from '../component.js';
import { decompressBody, DecompressionError, decompressSnappy, readBody } from '../support/decompression.js';
import { listenOn } from '../support/listeners.js';
import { metricEvent } from '../support/metric.js';
import { SourceAcknowledgements } from '../support/source-acknowledgements.js';
import { type WriteRequestData, writeRequestMetrics, writeRequestType } from '../support/prometheus.js';
import { reportHandshakeFailures, serverTlsOptions, tlsEnableableSchema, tlsFiles } from '../support/tls.js';

const options = z.strictObject({
  address: z.string(),
  path: z.string().default('/'),
  tls: tlsEnableableSchema.optional(),
  // `basic` is Vector's default when `strategy` is left out.
  auth: z
    .preprocess(
      (auth) =>
        typeof auth === 'object' && auth !== null && !('strategy' in auth) ? { ...auth, strategy: 'basic' } : auth,
      z.strictObject({ strategy: z.literal('basic'), username: z.string(), password: z.string() }),
    )
    .optional(),
  metadata_conflict_strategy: z.enum(['ignore', 'reject']).default('reject'),
  skip_nan_values: z.boolean().default(false),
});

type RemoteWriteOptions = z.infer<typeof options>;

/** The answer once the sinks are done with a request's metrics (Vector's). */
const ANSWERS: Record<BatchStatus, number> = { delivered: 200, errored: 500, rejected: 400 };

/** An answer to a request that is not a success. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function build(parsed: RemoteWriteOptions, env: ComponentEnv): Promise<Source> {
  const type = writeRequestType();
  const expectedAuth =
    parsed.auth &&
    Buffer.from(`Basic ${Buffer.from(`${parsed.auth.username}:${parsed.auth.password}`).toString('base64')}`);
  const acknowledgements = new SourceAcknowledgements(env.acknowledgements);
  let context: SourceContext | undefined;
  let stopping = false;
  /** Requests' metrics being handed downstream: the source's run ends once they are. */
  const sending = new Set<Promise<void>>();

  const refuse = (status: number, message: string, errorType: string) => {
    env.telemetry.error(errorType, 'receiving');
    env.log.warn(`Request rejected (${status}): ${message}`, {
      error_type: errorType,
      stage: 'receiving',
      internal_log_rate_key: errorType,
    });
    return new Refusal(status, message);
  };

  /** The metrics of a request's body, as batches. */
  const decode = async (request: IncomingMessage): Promise<EventBatch[]> => {
    let body: Uint8Array;
    try {
      const raw = await readBody(request, env.maxDecompressedSize);
      env.telemetry.receivedRaw(raw.length);
      // Snappy unless the request says otherwise, as Vector's.
      const encoding = request.headers['content-encoding'] ?? 'snappy';
      body =
        encoding.trim().toLowerCase() === 'snappy'
          ? await decompressSnappy(raw, env.maxDecompressedSize)
          : await decompressBody(raw, encoding, env.maxDecompressedSize);
    } catch (error) {
      if (!(error instanceof DecompressionError)) throw error;
      throw refuse(error.status, error.message, error.status === 413 ? 'request_too_large' : 'decompression_failed');
    }
    let metrics;
    try {
      const data = type.toObject(type.decode(body), { longs: Number, arrays: true }) as WriteRequestData;
      metrics = writeRequestMetrics(
        data,
        parsed.metadata_conflict_strategy,
        parsed.skip_nan_values,
        BigInt(Date.now()) * 1_000_000n,
      );
    } catch (error) {
      throw refuse(400, `Could not decode write request: ${(error as Error).message}`, 'parser_failed');
    }
    if (metrics.length === 0) return [];
    const bytes = encodeBatch(
      metrics.map((metric) => metricEvent(metric)),
      0,
    );
    return splitBatch({ bytes, count: metrics.length }, env.chunkSize);
  };

  /** The status a request is answered with, once its metrics are taken (or delivered). */
  const handle = async (request: IncomingMessage): Promise<number> => {
    if (stopping || context === undefined) return 503;
    const batches = await decode(request);
    let answer: (status: BatchStatus) => void = () => {};
    const status = new Promise<BatchStatus>((resolve) => (answer = resolve));
    const sent = acknowledgements.send(context, batches, answer);
    sending.add(sent);
    await sent.finally(() => sending.delete(sent));
    return ANSWERS[await status];
  };

  const serve = (request: IncomingMessage, response: ServerResponse) => {
    const answer = (status: number, message?: string) => {
      if (stopping) response.shouldKeepAlive = false;
      response.writeHead(status, message === undefined ? {} : { 'content-type': 'text/plain' }).end(message);
    };
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== parsed.path) return answer(404, 'Not found');
    if (request.method !== 'POST') return answer(405, 'Method not allowed');
    if (expectedAuth !== undefined) {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expectedAuth.length || !timingSafeEqual(given, expectedAuth)) {
        const message =
          request.headers.authorization === undefined ? 'No authorization header' : 'Invalid username/password';
        return answer(401, message);
      }
    }
    handle(request).then(
      (status) => answer(status),
      (error: unknown) => {
        if (error instanceof Refusal) return answer(error.status, error.message);
        env.log.error('Failed handling a remote write request.', { error: String(error) });
        answer(500, 'Internal error');
      },
    );
  };

  const tls = await serverTlsOptions(parsed.tls);
  const server = tls ? createHttpsServer(tls, serve) : createServer(serve);
  if (tls) reportHandshakeFailures(server as HttpsServer, env);
  await listenOn(server, parsed.address);
  /** Requests not answered yet: at shutdown the server closes once they are. */
  const answering = new Set<Promise<unknown>>();
  server.on('request', (_request, response: ServerResponse) => {
    const closed = once(response, 'close');
    answering.add(closed);
    void closed.then(() => answering.delete(closed));
  });
  let closed: Promise<void> | undefined;

  return {
    async run(given) {
      context = given;
      if (!given.shutdown.aborted) await once(given.shutdown, 'abort');
      stopping = true;
      closed = new Promise((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      while (sending.size > 0) await Promise.all(sending);
    },
    async acknowledged() {
      while (answering.size > 0) await Promise.all(answering);
      server.closeAllConnections();
      await closed;
    },
  };
}

const prometheusRemoteWrite: SourceDefinition<RemoteWriteOptions> = {
  kind: 'source',
  type: 'prometheus_remote_write',
  description: 'Receive metric via the Prometheus Remote Write protocol.',
  options,
  files: (parsed) => tlsFiles(parsed.tls),
  outputs: () => [{ name: undefined, kinds: ['metric'] }],
  build,
};

export default prometheusRemoteWrite;
