// `http_server` (older name `http`): events from HTTP request bodies, decompressed by `Content-Encoding` and
// decoded (newline delimited `bytes` by default, or the legacy `encoding`). Each event also gets the request
// path, the chosen headers and query parameters, and the peer address. The answer comes once downstream has
// accepted the events, or with acknowledgements once the sinks delivered them: `response_code` then, 500 when
// a sink gave them up and 400 when one rejected them (Vector's answers), 400 for an undecodable body, 404/405
// for another path/method, 413 past `--max-decompressed-size-bytes`, 415 for an unknown encoding, 503 while
// shutting down; at shutdown, every request under way is answered before its connection closes. At most
// `MAX_CONCURRENT_REQUESTS` bodies are handled at once. Idle connections close after Node's
// `keepAliveTimeout` (5 s), a request not received in full within its `requestTimeout` (300 s) is refused.
// With `tls.enabled` it serves HTTPS (support/tls.ts). With `auth`, a request is answered 401 unless it
// has the right basic credentials or, with the `custom` strategy, a remap program given its headers, peer
// address and path returns true; the metadata that program writes is added to the request's events where
// absent, as Vector does.

import { timingSafeEqual } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { z } from 'zod';
import { BatchFlag, decodeOutput, encodeBatch } from '../../../abi/batch.js';
import { BatchNotifier, type BatchStatus } from '../../topology/batch.js';
import type { ComponentEnv, Source, SourceDefinition } from '../component.js';
import {
  BYTES_FRAMING,
  decodedKinds,
  decodeSettings,
  decodingObject,
  framingSchema,
  logNamespaceOf,
  logNamespaceOption,
  NEWLINE_FRAMING,
  SourceDecoder,
  sourceStamp,
  stampSource,
  type DecodeSettings,
  type Stamp,
  type StampOrigin,
} from '../support/decoding.js';
import { decompressBody, DecompressionError, readBody } from '../support/decompression.js';
import { HttpListener, keepaliveSchema } from '../support/http-listener.js';
import { compileProgram, instantiateProgram } from '../support/remap-program.js';
import { tlsEnableableSchema, tlsFiles } from '../support/tls.js';

const options = z
  .strictObject({
    address: z.string(),
    path: z.string().default('/'),
    strict_path: z.boolean().default(true),
    method: z.enum(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']).default('POST'),
    encoding: z.enum(['text', 'ndjson', 'json', 'binary']).optional(),
    decoding: decodingObject.optional(),
    framing: framingSchema,
    headers: z.array(z.string()).default([]),
    query_parameters: z.array(z.string()).default([]),
    path_key: z.string().default('path'),
    host_key: z.string().optional(),
    response_code: z.number().int().min(100).max(599).default(200),
    keepalive: keepaliveSchema,
    // `basic` is Vector's default when `strategy` is left out.
    auth: z
      .preprocess(
        (auth) =>
          typeof auth === 'object' && auth !== null && !('strategy' in auth) ? { ...auth, strategy: 'basic' } : auth,
        z.discriminatedUnion('strategy', [
          z.strictObject({ strategy: z.literal('basic'), username: z.string(), password: z.string() }),
          z.strictObject({ strategy: z.literal('custom'), source: z.string() }),
        ]),
      )
      .optional(),
    tls: tlsEnableableSchema.optional(),
    log_namespace: logNamespaceOption,
  })
  .refine((o) => o.encoding === undefined || (o.decoding === undefined && o.framing === undefined), {
    message:
      '`encoding` is deprecated and cannot be combined with `decoding` or `framing`: configure `framing` and `decoding` instead',
    path: ['encoding'],
  });
type HttpServerOptions = z.infer<typeof options>;

/** The legacy `encoding` as framing and codec (Vector's mapping). */
const LEGACY_ENCODINGS: Record<
  NonNullable<HttpServerOptions['encoding']>,
  Pick<DecodeSettings, 'framing' | 'codec'>
> = {
  text: { framing: NEWLINE_FRAMING, codec: 'bytes' },
  ndjson: { framing: NEWLINE_FRAMING, codec: 'json' },
  json: { framing: BYTES_FRAMING, codec: 'json' },
  binary: { framing: BYTES_FRAMING, codec: 'bytes' },
};

/** A header or query parameter list: exact names, or patterns with `*`. */
export class NameSelection {
  private readonly exact: string[];
  private readonly patterns: RegExp[];

  constructor(names: string[], caseInsensitive: boolean) {
    this.exact = names.filter((name) => !name.includes('*'));
    const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    this.patterns = names
      .filter((name) => name.includes('*'))
      .map((name) => new RegExp(`^${name.split('*').map(escape).join('.*')}$`, caseInsensitive ? 'i' : ''));
  }

  /** Adds the selected entries to the stamp at the root (legacy namespace) or under `%<source type>.<group>`:
   * each exact name (null when absent) and every name a pattern matches. */
  stamp(
    stamp: Stamp,
    origin: StampOrigin,
    group: string,
    lookup: (name: string) => string | undefined,
    entries: Iterable<[string, string]>,
  ): void {
    if (this.exact.length === 0 && this.patterns.length === 0) return;
    const selected: Stamp = origin.logNamespace === 'vector' ? {} : stamp;
    if (selected !== stamp) stampSource(stamp, origin, undefined, [group], selected);
    for (const name of this.exact) selected[name] = lookup(name) ?? null;
    if (this.patterns.length === 0) return;
    for (const [name, value] of entries) {
      if (!(name in selected) && this.patterns.some((pattern) => pattern.test(name))) selected[name] = value;
    }
  }
}

function settingsOf(options: HttpServerOptions, env: ComponentEnv, origin: StampOrigin): DecodeSettings {
  if (options.encoding === undefined)
    return decodeSettings(
      options.decoding ?? { codec: 'bytes' },
      options.framing,
      NEWLINE_FRAMING,
      env,
      origin.logNamespace,
    );
  return {
    ...decodeSettings({ codec: 'bytes' }, undefined, NEWLINE_FRAMING, env, origin.logNamespace),
    ...LEGACY_ENCODINGS[options.encoding],
  };
}

/**
 * Requests whose bodies are read, decompressed and decoded at a time; the others wait, unread, for a turn,
 * so their bytes stay in the network buffers (TCP holds the senders back) rather than in memory. Waiting,
 * not 503: decoding runs on this one thread, so more at once would add memory (each body up to
 * `--max-decompressed-size-bytes`), not throughput, and a refused sender would only send again.
 */
export const MAX_CONCURRENT_REQUESTS = 4;

/** At most `limit` holders at a time; the others wait in arrival order. */
class Turns {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async take(): Promise<void> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the turn to the next waiting request, if any. */
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

/** Headers (lowercase names), the peer's address and the path of a request → the 401 message when `auth`
 * refuses it, else the fields its events gain. */
type Authenticator = (headers: Record<string, string>, address: string | undefined, path: string) => string | Stamp;

async function authenticator(auth: HttpServerOptions['auth'], env: ComponentEnv): Promise<Authenticator> {
  if (auth === undefined) return () => ({});
  if (auth.strategy === 'basic') {
    const expected = Buffer.from(`Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`);
    return (headers) => {
      const given = headers.authorization;
      if (given === undefined) return 'No authorization header';
      const bytes = Buffer.from(given);
      return bytes.length === expected.length && timingSafeEqual(bytes, expected) ? {} : 'Invalid username/password';
    };
  }
  // The request is the event, read-only; what the program writes in metadata goes to the events.
  const settings = { condition: true, readOnlyEvent: true, timezone: env.globals.timezone };
  const module = await compileProgram(auth.source, settings, env, 'auth.source');
  const program = await instantiateProgram(
    module,
    { push: (level, message) => env.log[level](message) },
    { maxDecompressedSize: env.maxDecompressedSize },
  );
  return (headers, address, path) => {
    const input = encodeBatch([{ event: { headers, address: address ?? null, path } }], BatchFlag.RESULTS);
    const [record] = decodeOutput(program.runBatch(input, { reuse: true }));
    if (record?.outcome !== 'kept') {
      env.log.warn(`Handling auth failed: ${record && 'message' in record ? record.message : 'no result'}`);
      return 'Auth failed';
    }
    if (record.result !== true) return 'Auth failed';
    return (record.events[0]?.metadata ?? {}) as Stamp;
  };
}

async function build(options: HttpServerOptions, env: ComponentEnv): Promise<Source> {
  // Imported here, not at the top: every pipeline loads this file, few run an HTTP server.
  const { Hono } = await import('hono');
  const origin = { sourceType: 'http_server', logNamespace: logNamespaceOf(env, options.log_namespace) };
  const decoder = new SourceDecoder(env, settingsOf(options, env, origin));
  const headers = new NameSelection(options.headers, true);
  const queryParameters = new NameSelection(options.query_parameters, false);
  const pathMatches = (path: string) => (options.strict_path ? path === options.path : path.startsWith(options.path));

  const fail = (c: Context, status: number, message: string, errorType: string) => {
    env.telemetry.error(errorType, 'receiving');
    env.log.warn(`Request rejected (${status}): ${message}`, {
      error_type: errorType,
      stage: 'receiving',
      internal_log_rate_key: errorType,
    });
    return c.text(message, status as 400);
  };
  const authenticate = await authenticator(options.auth, env);
  /** Vector's answers to a request the `auth` refuses; what its events gain when it passes. */
  const authorize = (c: Context<{ Bindings: HttpBindings }>, url: URL): Response | Stamp => {
    const answer = authenticate(c.req.header(), c.env.incoming.socket.remoteAddress, url.pathname);
    return typeof answer === 'string' ? fail(c, 401, answer, 'unauthorized') : answer;
  };

  const turns = new Turns(MAX_CONCURRENT_REQUESTS);
  let listener: HttpListener | undefined;

  /** A request's body into events, once it has its turn: its answer, or with acknowledgements the answer
   * once its events are delivered (awaited after the turn is given back). */
  const handle = async (
    c: Context<{ Bindings: HttpBindings }>,
    url: URL,
    enrichment: Stamp,
  ): Promise<Response | { delivered: Promise<Response> }> => {
    if (!listener?.accepting) return c.text('Service is shutting down', 503);
    const accepting = listener;
    // Vector's `keepalive.max_connection_age_secs`: an older connection is closed after this answer.
    if (listener.expired(c.env.incoming.socket)) c.header('Connection', 'close');
    let body: Uint8Array;
    try {
      body = await decompressBody(
        await readBody(c.env.incoming, env.maxDecompressedSize),
        c.req.header('content-encoding'),
        env.maxDecompressedSize,
      );
    } catch (error) {
      if (!(error instanceof DecompressionError)) throw error;
      return fail(c, error.status, error.message, error.status === 413 ? 'request_too_large' : 'decompression_failed');
    }
    const stamp = sourceStamp(env, origin, options.host_key, c.env.incoming.socket.remoteAddress ?? '');
    stampSource(stamp, origin, options.path_key, ['path'], url.pathname);
    headers.stamp(stamp, origin, 'headers', (name) => c.req.header(name), Object.entries(c.req.header()));
    queryParameters.stamp(
      stamp,
      origin,
      'query_parameters',
      (name) => url.searchParams.get(name) ?? undefined,
      url.searchParams.entries(),
    );
    // What the auth program wrote goes where absent: the event (legacy), or `%http_server.*` (Vector's).
    const enriched = origin.logNamespace === 'legacy' ? stamp : ((stamp[origin.sourceType] ??= {}) as Stamp);
    for (const [key, value] of Object.entries(enrichment)) if (!(key in enriched)) enriched[key] = value;
    const { batches, errors } = decoder.decodeChecked(body, stamp);
    if (errors.length > 0) return c.text(`Failed decoding body: ${errors[0]}`, 400);
    if (!env.acknowledgements) {
      for (const batch of batches) await accepting.send(batch);
      return c.body(null, options.response_code as 200);
    }
    let delivered: (status: BatchStatus) => void = () => {};
    const status = new Promise<BatchStatus>((resolve) => (delivered = resolve));
    const finalizer = new BatchNotifier(delivered);
    for (const batch of batches) {
      finalizer.hold();
      await accepting.send({ ...batch, finalizer });
    }
    finalizer.release();
    return {
      delivered: status.then((outcome) => {
        switch (outcome) {
          case 'delivered':
            return c.body(null, options.response_code as 200);
          case 'errored':
            return c.text('Error delivering contents to sink', 500);
          case 'rejected':
            return c.text('Contents failed to deliver to sink', 400);
        }
      }),
    };
  };

  const app = new Hono<{ Bindings: HttpBindings }>();
  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    if (!pathMatches(url.pathname)) return c.text('Not found', 404);
    if (c.req.method !== options.method) return c.text('Method not allowed', 405);
    const enrichment = authorize(c, url);
    if (enrichment instanceof Response) return enrichment;
    await turns.take();
    let answer: Response | { delivered: Promise<Response> };
    try {
      answer = await handle(c, url, enrichment);
    } finally {
      turns.give();
    }
    // The turn bounds bodies being read and decoded; events in the pipeline are bounded by its buffers, so a
    // request waiting for its acknowledgement holds no turn (with it, four requests at a time were answered).
    return answer instanceof Response ? answer : await answer.delivered;
  });

  const listening = await HttpListener.listen(app.fetch, options.address, options.tls, options.keepalive, env);
  listener = listening;
  return {
    run: (context) => listening.run(context),
    /** Every request under way is answered (with acknowledgements, once its events are delivered), then
     * the connections close. */
    acknowledged: () => listening.drained(),
  };
}

/** `http_server`, or the same under Vector's older name `http` (its events say `http_server` too). */
function httpServerDefinition(type: string): SourceDefinition<HttpServerOptions> {
  return {
    kind: 'source',
    type,
    description: 'Receive observability data from an HTTP client request.',
    options,
    files: (options) => tlsFiles(options.tls),
    outputs: (options) => [
      { name: undefined, kinds: options.encoding ? ['log'] : decodedKinds(options.decoding ?? { codec: 'bytes' }) },
    ],
    build,
  };
}

export const httpSource = httpServerDefinition('http');
export default httpServerDefinition('http_server');
