// The `splunk_hec` source, as Vector's: Splunk's HTTP Event Collector under `/services/collector`.
// `event` (also `event/1.0` and the bare path) takes HEC objects written one after another; each becomes a log
// event — a string `event` the message, an object's keys the fields (its `line` the message), in Vector's log
// namespace the `event` itself — with `fields`, `time` (seconds, milliseconds or nanoseconds), `host`,
// `index`, `source`, `sourcetype` and the channel placed as Vector places them (legacy namespace: `host_key`,
// `timestamp_key`, `splunk_index`, `splunk_source`, `splunk_sourcetype`, `splunk_channel`, the `fields` at the
// root; Vector's: `%splunk_hec.*`). `time`, `host`, `index`, `source` and `sourcetype` carry on to the next
// objects of the request that lack them. `raw` (channel required: `X-Splunk-Request-Channel` or `?channel=`)
// makes the body one event. `health` answers healthy; `ack` reports indexer acknowledgements. Requests need
// `Authorization: Splunk <token>` with one of `valid_tokens` (or `token`) when any is set; `store_hec_token`
// keeps the token in the events' metadata for the splunk_hec_logs sink. Bodies may be gzip. Answers and error
// codes are Vector's (Splunk's).

import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { z } from 'zod';
import { encodeBatch, type InputEvent } from '../../../abi/batch.js';
import { Timestamp } from '../../../abi/values.js';
import { BatchNotifier, type BatchStatus, splitBatch } from '../../topology/batch.js';
import type { ComponentEnv, Source, SourceDefinition } from '../component.js';
import { logNamespaceOf, logNamespaceOption, type Stamp, stampAt, stampSource } from '../support/decoding.js';
import { decompressBody, DecompressionError, readBody } from '../support/decompression.js';
import { HttpListener, keepaliveSchema } from '../support/http-listener.js';
import { HEC_TOKEN_METADATA } from '../support/splunk-hec.js';
import { tlsEnableableSchema, tlsFiles } from '../support/tls.js';
import { hecAcknowledgementsSchema, IndexerAcknowledgements, ServerBusy } from './splunk_hec/acknowledgements.js';

const options = z.strictObject({
  address: z.string().default('0.0.0.0:8088'),
  token: z.string().optional(),
  valid_tokens: z.array(z.string()).optional(),
  store_hec_token: z.boolean().default(false),
  tls: tlsEnableableSchema.optional(),
  acknowledgements: hecAcknowledgementsSchema,
  keepalive: keepaliveSchema,
  log_namespace: logNamespaceOption,
});
type SplunkHecOptions = z.infer<typeof options>;

const SOURCE_TYPE = 'splunk_hec';

/** Splunk's answer codes and texts. */
const HEC = {
  success: { text: 'Success', code: 0 },
  tokenRequired: { text: 'Token is required', code: 2 },
  invalidAuthorization: { text: 'Invalid authorization', code: 3 },
  noData: { text: 'No data', code: 5 },
  invalidDataFormat: { text: 'Invalid data format', code: 6 },
  serverBusy: { text: 'Server is busy', code: 9 },
  noChannel: { text: 'Data channel is missing', code: 10 },
  eventRequired: { text: 'Event field is required', code: 12 },
  eventBlank: { text: 'Event field cannot be blank', code: 13 },
  ackDisabled: { text: 'Ack is disabled', code: 14 },
} as const;

/** A refused request: its status and HEC body (none: an empty answer). */
class HecError extends Error {
  constructor(
    readonly status: number,
    readonly body?: { text: string; code: number; 'invalid-event-number'?: number },
  ) {
    super(body?.text ?? `HTTP ${status}`);
  }
}

const invalidEvent = (body: (typeof HEC)[keyof typeof HEC], event: number) =>
  new HecError(400, { ...body, 'invalid-event-number': event });

/** The end of the JSON value starting at `from` (whitespace skipped), or undefined when only whitespace is left. */
function jsonValueSpan(text: string, from: number): { start: number; end: number } | undefined {
  let start = from;
  while (start < text.length && /\s/.test(text[start]!)) start++;
  if (start === text.length) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return { start, end: i + 1 };
      }
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth <= 0) return { start, end: i + 1 };
    } else if (depth === 0 && /[\s{["]/.test(c!) && i > start) return { start, end: i };
  }
  return { start, end: text.length };
}

/** Vector's `parse_timestamp`: an integer `time` in seconds, milliseconds or nanoseconds by its size. */
function integerTime(time: number): Timestamp | undefined {
  if (time < 0) return undefined;
  if (time < 13_569_465_600) return new Timestamp(BigInt(time) * 1_000_000_000n);
  if (time < 253_402_300_800_000) return new Timestamp(BigInt(time) * 1_000_000n);
  return new Timestamp(BigInt(time));
}

/** An envelope's `time`: a number or a numeric string; undefined when absent. */
function envelopeTime(value: unknown, event: number): Timestamp | undefined {
  if (value === undefined || value === null || typeof value === 'boolean' || typeof value === 'object')
    return undefined;
  const time = typeof value === 'number' ? value : Number(value);
  if (typeof value === 'string' && (value.trim() === '' || !Number.isFinite(time)))
    throw invalidEvent(HEC.invalidDataFormat, event);
  if (Number.isInteger(time) && time >= 0) {
    const parsed = integerTime(time);
    if (parsed === undefined) throw invalidEvent(HEC.invalidDataFormat, event);
    return parsed;
  }
  const seconds = Math.floor(time);
  return new Timestamp(BigInt(seconds) * 1_000_000_000n + BigInt(Math.trunc((time - seconds) * 1e9)));
}

/** What a request's events share: its channel, peer, token, and the values that carry on between objects. */
interface RequestContext {
  channel: string | undefined;
  token: string | undefined;
  /** `host`, `index`, `source`, `sourcetype`: the last seen (host starts as the peer). */
  carried: Partial<Record<'host' | 'index' | 'source' | 'sourcetype', string>>;
  time: Timestamp;
}

/** The legacy namespace's keys of the extracted values (host: `log_schema.host_key`). */
const LEGACY_KEYS = { index: 'splunk_index', source: 'splunk_source', sourcetype: 'splunk_sourcetype' } as const;

class HecEvents {
  private readonly legacy: boolean;
  private readonly origin: { sourceType: string; logNamespace: 'legacy' | 'vector' };

  constructor(
    private readonly env: ComponentEnv,
    options: SplunkHecOptions,
  ) {
    this.origin = { sourceType: SOURCE_TYPE, logNamespace: logNamespaceOf(env, options.log_namespace) };
    this.legacy = this.origin.logNamespace === 'legacy';
  }

  /** An event made of `event` (legacy: its fields), with its source type and the token. */
  private base(event: unknown, token: string | undefined): { event: Stamp; metadata: Stamp } {
    const metadata: Stamp = token === undefined ? {} : { [HEC_TOKEN_METADATA]: token };
    if (this.legacy)
      return { event: stampAt(event as Stamp, this.env.globals.log_schema.source_type_key, SOURCE_TYPE), metadata };
    metadata.vector = { source_type: SOURCE_TYPE, ingest_timestamp: Timestamp.fromDate(new Date()) };
    return { event: event as Stamp, metadata };
  }

  /** Puts `value` at the legacy key (in the event) or at `%splunk_hec.<key>`. */
  private put(target: { event: Stamp; metadata: Stamp }, legacyKey: string | undefined, key: string, value: unknown) {
    stampSource(this.legacy ? target.event : target.metadata, this.origin, legacyKey, [key], value);
  }

  /** One HEC object of the event endpoint (the `index`-th of its request). */
  fromObject(json: unknown, index: number, request: RequestContext): InputEvent {
    const envelope = (typeof json === 'object' && json !== null && !Array.isArray(json) ? json : {}) as Record<
      string,
      unknown
    >;
    const body = envelope.event;
    if (body === undefined || body === null) throw invalidEvent(HEC.eventRequired, index);
    if (body === '') throw invalidEvent(HEC.eventBlank, index);
    const schema = this.env.globals.log_schema;
    let log: unknown = body;
    if (!this.legacy) {
      // Vector's namespace: the event is `event` as it came.
    } else if (typeof body === 'string') {
      log = stampAt({}, schema.message_key, body);
    } else if (typeof body === 'object' && !Array.isArray(body)) {
      const { line, ...rest } = body as Record<string, unknown>;
      if (line === undefined && Object.keys(rest).length === 0) throw invalidEvent(HEC.eventBlank, index);
      // The docker splunk logger puts the message in `line`; the other keys come after it, as in Vector.
      const fields: Stamp = {};
      if (typeof line === 'object' && line !== null) fields.line = line;
      else if (line !== undefined) stampAt(fields, schema.message_key, line);
      log = Object.assign(fields, rest);
    } else {
      throw invalidEvent(HEC.invalidDataFormat, index);
    }
    const target = this.base(log, request.token);
    const channel = typeof envelope.channel === 'string' ? envelope.channel : request.channel;
    if (channel !== undefined) this.put(target, 'splunk_channel', 'channel', channel);
    const fields = envelope.fields;
    if (typeof fields === 'object' && fields !== null && !Array.isArray(fields)) {
      for (const [key, value] of Object.entries(fields)) {
        if (this.legacy) target.event[key] = value;
        else ((target.metadata[SOURCE_TYPE] ??= {}) as Stamp)[key] = value;
      }
    }
    request.time = envelopeTime(envelope.time, index) ?? request.time;
    this.put(target, schema.timestamp_key, 'timestamp', request.time);
    for (const key of ['host', 'index', 'source', 'sourcetype'] as const) {
      const value = envelope[key];
      if (typeof value === 'string') request.carried[key] = value;
      const carried = request.carried[key];
      if (carried !== undefined) this.put(target, key === 'host' ? schema.host_key : LEGACY_KEYS[key], key, carried);
    }
    return { kind: 'log', event: target.event, metadata: target.metadata };
  }

  /** The raw endpoint's body as one event. */
  fromRaw(body: Uint8Array, channel: string, host: string | undefined, token: string | undefined): InputEvent {
    const schema = this.env.globals.log_schema;
    const target = this.base(this.legacy ? stampAt({}, schema.message_key, body) : body, token);
    if (this.legacy) stampAt(target.event, schema.timestamp_key, Timestamp.fromDate(new Date()));
    this.put(target, 'splunk_channel', 'channel', channel);
    if (host !== undefined) this.put(target, schema.host_key, 'host', host);
    return { kind: 'log', event: target.event, metadata: target.metadata };
  }
}

/** Vector's `remote.to_string()`: `ip:port`, IPv6 in brackets. */
function peerAddress(c: Context<{ Bindings: HttpBindings }>): string | undefined {
  const { remoteAddress, remotePort } = c.env.incoming.socket;
  if (remoteAddress === undefined) return undefined;
  return remoteAddress.includes(':') ? `[${remoteAddress}]:${remotePort}` : `${remoteAddress}:${remotePort}`;
}

async function build(options: SplunkHecOptions, env: ComponentEnv): Promise<Source> {
  const { Hono } = await import('hono');
  const credentials = [...(options.valid_tokens ?? []), ...(options.token === undefined ? [] : [options.token])].map(
    (token) => `Splunk ${token}`,
  );
  const acknowledging =
    options.acknowledgements.enabled ?? env.globals.acknowledgements.enabled ?? env.acknowledgements ?? false;
  const acks = acknowledging ? new IndexerAcknowledgements(options.acknowledgements) : undefined;
  const events = new HecEvents(env, options);
  let listener: HttpListener | undefined;

  /** The token of an authorized request (without `Splunk `), else a 401. */
  const authorize = (header: string | undefined): string | undefined => {
    if (credentials.length > 0) {
      if (header === undefined) throw new HecError(401, HEC.tokenRequired);
      if (!credentials.includes(header)) throw new HecError(401, HEC.invalidAuthorization);
    }
    return header?.startsWith('Splunk ') ? header.slice('Splunk '.length) : header;
  };
  const channelOf = (c: Context) => c.req.header('x-splunk-request-channel') ?? c.req.query('channel');
  const requiredChannel = (c: Context) => {
    const channel = channelOf(c);
    if (channel === undefined) throw new HecError(400, HEC.noChannel);
    return channel;
  };
  /** Whether the body is gzip: only `Content-Encoding: gzip` is, any other encoding is refused (415). */
  const gzipped = (c: Context) => {
    const encoding = c.req.header('content-encoding');
    if (encoding !== undefined && encoding !== 'gzip') throw new HecError(415);
    return encoding === 'gzip';
  };
  const decompressed = async (body: Uint8Array, gzip: boolean, onFailure: HecError) => {
    if (!gzip) return body;
    try {
      return await decompressBody(body, 'gzip', env.maxDecompressedSize);
    } catch {
      throw onFailure;
    }
  };

  /** Sends the request's events on; with acknowledgements, their ack id on `channel`. */
  const forward = async (inputs: InputEvent[], channel: string | undefined): Promise<number | undefined> => {
    if (!listener?.accepting) throw new HecError(503);
    const accepting = listener;
    let ackId: number | undefined;
    let finalizer: BatchNotifier | undefined;
    if (acks !== undefined && channel !== undefined) {
      let settle: (status: BatchStatus) => void = () => {};
      const settled = new Promise<BatchStatus>((resolve) => (settle = resolve));
      ackId = acks.ackId(channel, settled);
      finalizer = new BatchNotifier(settle);
    }
    if (inputs.length > 0) {
      const batch = { bytes: encodeBatch(inputs, 0), count: inputs.length };
      for (const part of splitBatch(batch, env.chunkSize)) {
        finalizer?.hold();
        await accepting.send({ ...part, finalizer });
      }
    }
    finalizer?.release();
    return ackId;
  };
  const success = (c: Context, ackId: number | undefined) =>
    c.json(ackId === undefined ? HEC.success : { ...HEC.success, ackId }, 200);

  const eventRequest = async (c: Context<{ Bindings: HttpBindings }>) => {
    const token = authorize(c.req.header('authorization'));
    const channel = channelOf(c);
    const gzip = gzipped(c);
    if (acks !== undefined && channel === undefined) throw new HecError(400, HEC.noChannel);
    const bytes = await decompressed(await readBody(c.env.incoming, env.maxDecompressedSize), gzip, new HecError(400));
    env.telemetry.receivedRaw(bytes.length);
    const text = Buffer.from(bytes).toString('utf8');
    const request: RequestContext = {
      channel,
      token: options.store_hec_token ? token : undefined,
      carried: { host: c.req.header('x-forwarded-for') ?? peerAddress(c) },
      time: Timestamp.fromDate(new Date()),
    };
    const inputs: InputEvent[] = [];
    let failure: HecError | undefined;
    for (let from = 0, index = 0; ; index++) {
      const span = jsonValueSpan(text, from);
      if (span === undefined) {
        if (index === 0) failure = new HecError(400, HEC.noData);
        break;
      }
      from = span.end;
      try {
        let json: unknown;
        try {
          json = JSON.parse(text.slice(span.start, span.end));
        } catch (error) {
          env.telemetry.error('parser_failed', 'processing');
          env.log.error('Invalid request body.', {
            error: (error as Error).message,
            error_code: 'invalid_request_body',
            error_type: 'parser_failed',
            stage: 'processing',
            internal_log_rate_key: 'invalid_request_body',
          });
          throw invalidEvent(HEC.invalidDataFormat, index);
        }
        inputs.push(events.fromObject(json, index, request));
      } catch (error) {
        if (!(error instanceof HecError)) throw error;
        failure = error;
        break;
      }
    }
    // As Vector: the objects before a bad one are sent on, and the ack id is registered either way.
    const ackId = await forward(inputs, channel);
    if (failure !== undefined) throw failure;
    return success(c, ackId);
  };

  const rawRequest = async (c: Context<{ Bindings: HttpBindings }>) => {
    const token = authorize(c.req.header('authorization'));
    const channel = requiredChannel(c);
    const gzip = gzipped(c);
    const body = await readBody(c.env.incoming, env.maxDecompressedSize);
    env.telemetry.receivedRaw(body.length);
    const decoded = await decompressed(body, gzip, invalidEvent(HEC.invalidDataFormat, 0));
    if (gzip && decoded.length === 0) throw new HecError(400, HEC.noData);
    const host = c.req.header('x-forwarded-for') ?? peerAddress(c);
    const input = events.fromRaw(decoded, channel, host, options.store_hec_token ? token : undefined);
    return success(c, await forward([input], channel));
  };

  const ackRequest = async (c: Context<{ Bindings: HttpBindings }>) => {
    authorize(c.req.header('authorization'));
    const channel = requiredChannel(c);
    const type = c.req.header('content-type');
    if (type !== undefined && !type.toLowerCase().includes('application/json'))
      return c.text("The request's content-type is not supported", 415);
    let ids: number[];
    try {
      const parsed = JSON.parse(Buffer.from(await readBody(c.env.incoming, env.maxDecompressedSize)).toString('utf8'));
      ids = (parsed as { acks: unknown }).acks as number[];
      if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id) && id >= 0)) throw new Error('acks');
    } catch {
      throw new HecError(400);
    }
    if (acks === undefined) throw new HecError(400, HEC.ackDisabled);
    return c.json({ acks: acks.statuses(channel, ids) }, 200);
  };

  const routes: Record<string, { method: string; handle: (c: Context<{ Bindings: HttpBindings }>) => unknown }> = {
    '': { method: 'POST', handle: eventRequest },
    '/event': { method: 'POST', handle: eventRequest },
    '/event/1.0': { method: 'POST', handle: eventRequest },
    '/raw': { method: 'POST', handle: rawRequest },
    '/raw/1.0': { method: 'POST', handle: rawRequest },
    '/health': { method: 'GET', handle: (c) => c.json({ text: 'HEC is healthy', code: 17 }, 200) },
    '/health/1.0': { method: 'GET', handle: (c) => c.json({ text: 'HEC is healthy', code: 17 }, 200) },
    '/ack': { method: 'POST', handle: ackRequest },
  };

  const app = new Hono<{ Bindings: HttpBindings }>();
  app.all('*', async (c) => {
    const path = new URL(c.req.url).pathname;
    const route = path.startsWith('/services/collector') ? routes[path.slice('/services/collector'.length)] : undefined;
    if (route === undefined) return c.body(null, 404);
    // Vector answers OPTIONS on the data and health endpoints with the method they take.
    if (c.req.method === 'OPTIONS' && path !== '/services/collector' && !path.endsWith('/ack')) {
      c.header('Allow', route.method);
      return c.body(null, 200);
    }
    if (c.req.method !== route.method) return c.text('HTTP method not allowed', 405);
    if (listener?.expired(c.env.incoming.socket)) c.header('Connection', 'close');
    try {
      return (await route.handle(c)) as Response;
    } catch (error) {
      if (error instanceof ServerBusy) return refused(c, new HecError(503, HEC.serverBusy));
      // A body past `--max-decompressed-size-bytes`.
      if (error instanceof DecompressionError) return refused(c, new HecError(error.status));
      if (!(error instanceof HecError)) throw error;
      return refused(c, error);
    }
  });

  const refused = (c: Context, error: HecError) => {
    const authentication = error.status === 401;
    const errorType = authentication ? 'authentication_failed' : 'request_failed';
    env.telemetry.error(errorType, 'receiving');
    env.log.error(authentication ? 'Unauthenticated request.' : 'Error processing request.', {
      error: error.message,
      error_type: errorType,
      stage: 'receiving',
      internal_log_rate_key: errorType,
    });
    return error.body === undefined ? c.body(null, error.status as 400) : c.json(error.body, error.status as 400);
  };

  const listening = await HttpListener.listen(app.fetch, options.address, options.tls, options.keepalive, env);
  listener = listening;
  return {
    async run(context) {
      await listening.run(context);
      acks?.stop();
    },
    acknowledged: () => listening.drained(),
  };
}

const splunkHec: SourceDefinition<SplunkHecOptions> = {
  kind: 'source',
  type: 'splunk_hec',
  description: 'Receive logs from Splunk.',
  options,
  files: (parsed) => tlsFiles(parsed.tls),
  outputs: () => [{ name: undefined, kinds: ['log'] }],
  build,
};

export default splunkHec;
