// `vector`: events from Vector instances (their `vector` sink) or svc agents, over Vector's gRPC protocol
// version 2 (support/vector-protocol.ts): the service `vector.Vector` at `address`, plain or with `tls`.
// A PushEvents request's events go on as the batches of one request; it is answered once downstream took them
// or, with end-to-end acknowledgements, once every sink delivered them: a delivery given up on is answered
// INTERNAL and one a sink rejected DATA_LOSS, as Vector answers, so that the sender retries or gives up. Log
// events get Vector's standard source metadata (`source_type`, `ingest_timestamp`): in the legacy namespace
// at `log_schema`'s keys where absent, in Vector's at `%vector.*`. An event that cannot be an svc event is
// counted as an error and left out; a request that is no PushEventsRequest is answered INVALID_ARGUMENT.
//
// HealthCheck answers SERVING, and NOT_SERVING once the process shuts down (Vector always answers SERVING);
// so does gRPC's standard health service (grpc.health.v1 Check, for "" and "vector.Vector"), which Vector
// serves too. From then on PushEvents is answered UNAVAILABLE, so that a sender (svc's `vector` sink with
// several endpoints) moves to another address, while the requests under way are still answered.

import { z } from 'zod';
import type * as Grpc from '@grpc/grpc-js';
import { encodeBatch, type InputEvent } from '../../../abi/batch.js';
import { type BatchStatus, splitBatch } from '../../topology/batch.js';
import type { ComponentEnv, Source, SourceContext, SourceDefinition } from '../component.js';
import { logNamespaceOf, logNamespaceOption, stampAt, type Stamp } from '../support/decoding.js';
import { parseListenAddress } from '../support/listeners.js';
import { SourceAcknowledgements } from '../support/source-acknowledgements.js';
import { serverTlsOptions, tlsEnableableSchema, tlsFiles } from '../support/tls.js';
import {
  decodePushEvents,
  EMPTY_MESSAGE,
  encodeGrpcHealthResponse,
  encodeHealthCheckResponse,
  GRPC_HEALTH_SERVICE,
  grpcHealthService,
  ServingStatus,
  VECTOR_SERVICE,
} from '../support/vector-protocol.js';

const options = z.strictObject({
  address: z.string().refine(
    (text) => {
      try {
        return parseListenAddress(text) !== undefined;
      } catch {
        return false;
      }
    },
    { message: 'expected host:port, e.g. 0.0.0.0:6000' },
  ),
  version: z.literal('2').optional(),
  tls: tlsEnableableSchema.optional(),
  keepalive: z
    .strictObject({
      max_connection_age_secs: z.number().int().nonnegative().optional(),
      max_connection_age_grace_secs: z.number().int().nonnegative().optional(),
    })
    .prefault({}),
  log_namespace: logNamespaceOption,
});
type VectorSourceOptions = z.infer<typeof options>;

const SOURCE_TYPE = 'vector';

/** Vector's answer to a delivery that did not succeed, by the batch's status. */
function failedDelivery(grpc: typeof Grpc, status: BatchStatus): Grpc.StatusObject {
  return status === 'rejected'
    ? { code: grpc.status.DATA_LOSS, details: 'Delivery failed', metadata: new grpc.Metadata() }
    : { code: grpc.status.INTERNAL, details: 'Delivery error', metadata: new grpc.Metadata() };
}

/** Legacy namespace: `stamp`'s fields are added to `event` where it has none (Vector's `try_insert`). */
function fillAbsent(event: Record<string, unknown>, stamp: Stamp): void {
  for (const [key, value] of Object.entries(stamp)) {
    const current = event[key];
    if (current === undefined) event[key] = value;
    else if (isPlainObject(current) && isPlainObject(value)) fillAbsent(current, value);
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** The server's credentials from `tls` (grpc-js takes PEM certificate and key, not PKCS#12). */
async function serverCredentials(grpc: typeof Grpc, tls: VectorSourceOptions['tls']): Promise<Grpc.ServerCredentials> {
  const settings = await serverTlsOptions(tls);
  if (settings === undefined) return grpc.ServerCredentials.createInsecure();
  if (settings.pfx !== undefined)
    throw new Error('tls.crt_file: the vector source takes a PEM or DER certificate with tls.key_file, not PKCS#12');
  const pem = (value: unknown) => Buffer.from([value].flat().join(''));
  return grpc.ServerCredentials.createSsl(
    settings.ca === undefined ? null : pem(settings.ca),
    [{ cert_chain: pem(settings.cert), private_key: pem(settings.key) }],
    settings.requestCert,
  );
}

async function build(options: VectorSourceOptions, env: ComponentEnv): Promise<Source> {
  const grpc = await import('@grpc/grpc-js');
  const namespace = logNamespaceOf(env, options.log_namespace);
  const schema = env.globals.log_schema;
  const acknowledgements = new SourceAcknowledgements(env.acknowledgements);
  const { max_connection_age_secs: age, max_connection_age_grace_secs: grace } = options.keepalive;
  const server = new grpc.Server({
    'grpc.max_receive_message_length': env.maxDecompressedSize,
    ...(age !== undefined && { 'grpc.max_connection_age_ms': age * 1000 }),
    ...(age !== undefined && grace !== undefined && { 'grpc.max_connection_age_grace_ms': grace * 1000 }),
  });

  let started: (context: SourceContext) => void = () => {};
  const running = new Promise<SourceContext>((resolve) => (started = resolve));
  let draining = false;
  /** Requests whose events are being handed on (run ends once they are). */
  const sending = new Set<Promise<void>>();

  /** Vector's standard source metadata on a log event (`insert_standard_vector_source_metadata`). */
  const stampLog = (event: InputEvent, now: Date) => {
    if (namespace === 'vector') {
      const metadata = event.metadata as Stamp;
      const vector = isPlainObject(metadata.vector) ? metadata.vector : (metadata.vector = {});
      vector.source_type = SOURCE_TYPE;
      vector.ingest_timestamp = now;
    } else if (isPlainObject(event.event)) {
      fillAbsent(event.event, stampAt(stampAt({}, schema.source_type_key, SOURCE_TYPE), schema.timestamp_key, now));
    }
  };

  /** The request's events (those that cannot be svc events counted and left out), or the answer to bytes
   * that are no PushEventsRequest. */
  const decodeRequest = (bytes: Buffer): { events?: InputEvent[]; failure?: Grpc.StatusObject } => {
    let decoded: ReturnType<typeof decodePushEvents>;
    try {
      decoded = decodePushEvents(bytes);
    } catch (error) {
      env.telemetry.error('decoder_failed', 'receiving');
      env.log.error('Failed decoding a PushEvents request.', {
        error: (error as Error).message,
        error_type: 'decoder_failed',
        stage: 'receiving',
        internal_log_rate_key: 'decoder_failed',
      });
      return {
        failure: {
          code: grpc.status.INVALID_ARGUMENT,
          details: 'invalid PushEventsRequest',
          metadata: new grpc.Metadata(),
        },
      };
    }
    const { events, errors } = decoded;
    if (errors.length > 0) {
      env.telemetry.error('decoder_failed', 'receiving', errors.length);
      env.telemetry.discarded(errors.length, false);
      env.log.error('Events dropped: not representable as svc events.', {
        error: errors[0]!,
        count: errors.length,
        error_type: 'decoder_failed',
        stage: 'receiving',
        internal_log_rate_key: 'decoder_failed',
      });
    }
    return { events };
  };

  /** Hands the request's events on (`handing` settles then: `run` waits for it); resolves with its answer. */
  const push = async (bytes: Buffer, handing: { done(): void }): Promise<Grpc.StatusObject | undefined> => {
    let answer: (status: BatchStatus) => void = () => {};
    const answered = new Promise<BatchStatus>((resolve) => (answer = resolve));
    try {
      env.telemetry.receivedRaw(bytes.byteLength);
      const { events, failure } = decodeRequest(bytes);
      if (failure) return failure;
      const now = new Date();
      for (const event of events!) if (event.kind === 'log') stampLog(event, now);
      const batches =
        events!.length === 0
          ? []
          : splitBatch({ bytes: encodeBatch(events!, 0), count: events!.length }, env.chunkSize);
      await acknowledgements.send(await running, batches, answer);
    } finally {
      handing.done();
    }
    const status = await answered;
    return status === 'delivered' ? undefined : failedDelivery(grpc, status);
  };

  server.addService(VECTOR_SERVICE, {
    PushEvents: (call: Grpc.ServerUnaryCall<Buffer, Buffer>, callback: Grpc.sendUnaryData<Buffer>) => {
      if (draining) {
        callback({ code: grpc.status.UNAVAILABLE, details: 'the source is shutting down' });
        return;
      }
      // Registered at once, so that a shutdown waits for a request accepted before it.
      let done: () => void = () => {};
      const handing = new Promise<void>((resolve) => (done = resolve));
      sending.add(handing);
      void handing.then(() => sending.delete(handing));
      push(call.request, { done }).then(
        (failure) => (failure === undefined ? callback(null, EMPTY_MESSAGE) : callback(failure)),
        (error: Error) => callback({ code: grpc.status.INTERNAL, details: error.message }),
      );
    },
    HealthCheck: (_call: Grpc.ServerUnaryCall<Buffer, Buffer>, callback: Grpc.sendUnaryData<Buffer>) =>
      callback(null, encodeHealthCheckResponse(draining ? ServingStatus.NOT_SERVING : ServingStatus.SERVING)),
  });
  server.addService(GRPC_HEALTH_SERVICE, {
    Check: (call: Grpc.ServerUnaryCall<Buffer, Buffer>, callback: Grpc.sendUnaryData<Buffer>) => {
      let service: string;
      try {
        service = grpcHealthService(call.request);
      } catch {
        callback({ code: grpc.status.INVALID_ARGUMENT, details: 'invalid HealthCheckRequest' });
        return;
      }
      if (service === '' || service === 'vector.Vector') callback(null, encodeGrpcHealthResponse(!draining));
      else callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${service}` });
    },
  });

  const { host, port } = parseListenAddress(options.address);
  const credentials = await serverCredentials(grpc, options.tls);
  await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host.includes(':') ? `[${host}]` : host}:${port}`, credentials, (error, bound) =>
      error ? reject(new Error(`could not listen on ${options.address}: ${error.message}`)) : resolve(bound),
    ),
  );

  return {
    async run(context) {
      started(context);
      if (!context.shutdown.aborted)
        await new Promise((resolve) => context.shutdown.addEventListener('abort', resolve, { once: true }));
      draining = true;
      while (sending.size > 0) await Promise.all([...sending]);
    },
    /** Every request is answered (with acknowledgements, once its events are delivered), then the server stops. */
    async acknowledged() {
      await acknowledgements.settled();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}

const vector: SourceDefinition<VectorSourceOptions> = {
  kind: 'source',
  type: 'vector',
  description: 'Collect observability data from a Vector instance.',
  options,
  files: (parsed) => tlsFiles(parsed.tls),
  outputs: () => [{ name: undefined, kinds: ['log', 'metric', 'trace'] }],
  build,
};

export default vector;
