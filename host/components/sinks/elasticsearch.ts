// The `elasticsearch` sink, as Vector's: events indexed through the bulk API (`<endpoint>/_bulk`, NDJSON: an
// action line, then the event as JSON, per event). `mode: bulk` indexes into `bulk.index` (a template with
// strftime, or `bulk.template_fallback_index` when it does not render) with `bulk.action`; `mode:
// data_stream` creates into `<type>-<dataset>-<namespace>` (from the event's `data_stream` fields with
// `auto_routing`, else the templates), adding those fields (`sync_fields`) and moving the timestamp to
// `@timestamp`. `id_key` moves a field into the document's `_id`, with `bulk.version` (external versioning). `api_version: auto` asks the first endpoint
// (`GET /`) for its major version: up to 6, action lines name `doc_type`. Requests go to the `endpoints` in
// turn (or the deprecated `endpoint`).
//
// A 200 whose body says `"errors": true` failed item by item: with `request_retry_partial` the items that
// failed with 429 or 5xx are retried as a request of their own, and the others are given up (counted as
// errors, the batch rejected); without it every failed item is given up. Requests, retries (429, 5xx but 501,
// and failed requests; not 408), concurrency and TLS are those of every HTTP sink (support/http-batch-sink.ts).
// The healthcheck asks `/_cluster/health`. `auth.strategy: aws` signs every request (signature version 4, for
// `aws.region`) as service `es`, or `aoss` with `opensearch_service_type: serverless` (whose collections
// answer neither the version probe nor the healthcheck: version 8 is assumed, the healthcheck skipped).

import type { Dispatcher } from 'undici';
import { z } from 'zod';
import {
  BatchReader,
  BatchWriter,
  pickRecords,
  recordEnds,
  withoutField,
  writeEdited,
  type FieldEdit,
} from '../../../runtime/engine.js';
import { ByteWriter, EMPTY_OBJECT, encode, Wire } from '../../../abi/codec.js';
import type { RemapValue } from '../../../runtime/index.js';
import { templateOption } from '../../config/template.js';
import type { ComponentEnv, Sink } from '../component.js';
import { toBatch, type EventBatch } from '../../topology/batch.js';
import { compress, CONTENT_ENCODING } from '../support/compression.js';
import { encodeOptions, SinkEncoder, transformerSchema } from '../support/encoding.js';
import { eventFieldPath, isObject, lossyString } from '../support/event-fields.js';
import { EventTemplate, type RenderFailure, templateFailed } from '../support/event-template.js';
import {
  authHeader,
  batchSchema,
  commonSettings,
  HttpBatchSink,
  httpLogSink,
  type HttpRequest,
  httpClient,
  type HttpClient,
  httpTlsSchema,
  httpUri,
  type Outcome,
  requestWithHeadersSchema,
  TWO_CREDENTIALS,
  uriCredentials,
} from '../support/http-batch-sink.js';
import type { RetryTimer } from '../support/retry.js';
import { CloudSigner } from '../support/cloud-auth.js';
import { cloudAuthSchema } from '../../config/common.js';

const BULK_ACTIONS = ['index', 'create', 'update'] as const;

const options = z
  .strictObject({
    endpoints: z.array(httpUri).optional(),
    /** Deprecated in Vector for `endpoints`. */
    endpoint: httpUri.optional(),
    mode: z.enum(['bulk', 'data_stream']).default('bulk'),
    bulk: z
      .strictObject({
        action: templateOption().default('index'),
        index: templateOption().default('vector-%Y.%m.%d'),
        template_fallback_index: z.string().optional(),
        version: templateOption().optional(),
        version_type: z.enum(['internal', 'external', 'external_gte']).default('internal'),
      })
      .prefault({}),
    data_stream: z
      .strictObject({
        type: templateOption().default('logs'),
        dataset: templateOption().default('generic'),
        namespace: templateOption().default('default'),
        auto_routing: z.boolean().default(true),
        sync_fields: z.boolean().default(true),
      })
      .prefault({}),
    api_version: z.enum(['auto', 'v6', 'v7', 'v8']).default('auto'),
    doc_type: z.string().default('_doc'),
    suppress_type_name: z.boolean().default(false),
    id_key: z.string().optional(),
    pipeline: z.string().optional(),
    query: z
      .record(
        z.string(),
        z.union([z.string(), z.strictObject({ type: z.literal('string').default('string'), value: z.string() })]),
      )
      .optional(),
    request_retry_partial: z.boolean().default(false),
    compression: z.enum(['none', 'gzip', 'zlib', 'zstd', 'snappy']).default('none'),
    encoding: transformerSchema,
    auth: z
      .discriminatedUnion('strategy', [
        z.strictObject({ strategy: z.literal('basic'), user: z.string(), password: z.string() }),
        cloudAuthSchema.extend({ strategy: z.literal('aws') }),
      ])
      .optional(),
    aws: z.strictObject({ region: z.string().optional(), endpoint: z.string().optional() }).optional(),
    opensearch_service_type: z.enum(['managed', 'serverless']).default('managed'),
    request: requestWithHeadersSchema,
    batch: batchSchema({ max_bytes: 10_000_000, timeout_secs: 1 }),
    tls: httpTlsSchema.optional(),
  })
  .check((ctx) => {
    const { auth, endpoint, endpoints = [], bulk, id_key, aws, opensearch_service_type, api_version } = ctx.value;
    const issue = (path: string[], message: string) =>
      ctx.issues.push({ code: 'custom', input: ctx.value, path, message });
    // Vector's checks, with its messages.
    if (endpoint !== undefined && endpoints.length > 0)
      issue(['endpoint'], '`endpoint` and `endpoints` options are mutually exclusive. Please use `endpoints` option.');
    if (endpoint === undefined && endpoints.length === 0) issue(['endpoints'], 'Endpoints option must be specified');
    const uris = endpoint === undefined ? endpoints : [endpoint];
    if (auth?.strategy === 'basic' && uris.some((uri) => URL.canParse(uri) && uriCredentials(uri).auth !== undefined))
      issue(['auth'], TWO_CREDENTIALS);
    if (auth?.strategy === 'aws' && aws?.region === undefined)
      issue(['aws', 'region'], 'aws.region required when AWS authentication is in use');
    if (opensearch_service_type === 'serverless' && auth?.strategy !== 'aws')
      issue(['auth', 'strategy'], 'Amazon OpenSearch Serverless requires `auth.strategy` value to be `aws`');
    if (opensearch_service_type === 'serverless' && api_version !== 'auto')
      issue(['api_version'], 'Amazon OpenSearch Serverless requires `api_version` value to be `auto`');
    if (bulk.version !== undefined && bulk.version_type === 'internal')
      issue(['bulk', 'version'], 'Your version field will be ignored because you use internal versioning');
    if (bulk.version !== undefined && bulk.version_type !== 'internal' && id_key === undefined)
      issue(['id_key'], 'Cannot use external versioning without specifying a document ID');
    if (bulk.version === undefined && bulk.version_type !== 'internal')
      issue(['bulk', 'version_type'], 'Tried to use external versioning without specifying the version itself');
  });

type ElasticsearchOptions = z.infer<typeof options>;

/** A bulk request and its items (an action line and a document each), for retrying the failed ones. */
interface BulkRequest extends HttpRequest {
  items: Uint8Array[];
}

/** An item of a bulk response (Vector reads `status` and `error` of index, create and update results). */
interface BulkItem {
  status?: number;
  error?: { type?: string; reason?: string };
}

/** The events of `part` at `indexes` (ascending), as a batch. */
function pickedEvents(part: EventBatch, indexes: readonly number[]): EventBatch {
  const bits = new Uint8Array((part.count + 7) >> 3);
  for (const index of indexes) bits[index >> 3]! |= 1 << (index & 7);
  return toBatch(pickRecords(part.bytes, recordEnds(part.bytes), bits).bytes);
}

/** Vector's retry logic for bulk items: back-pressure and server errors. */
const retriableItem = (status: number | undefined) => status !== undefined && (status === 429 || status >= 500);

/** Vector's checks on an auto-routed `data_stream` value: what Elasticsearch takes in a data stream name. */
function validStreamPart(text: string, field: string): boolean {
  if (text === '') return true;
  if (text.length > 100 || /[\0/\\*?"<>|,#: ]/.test(text) || /^[-_+.]/.test(text)) return false;
  if (/[\x00-\x1f\x7f-\x9f]/.test(text)) return false;
  return field === 'type' || !text.includes('-');
}

type DataStreamField = 'type' | 'dataset' | 'namespace';
const STREAM_FIELDS: readonly DataStreamField[] = ['type', 'dataset', 'namespace'];

class ElasticsearchSink extends HttpBatchSink {
  /** Each endpoint without credentials, and its headers (with the auth in force: `auth`, or the endpoint's). */
  private readonly endpoints: Array<{ base: string; headers: Record<string, string> }>;
  private readonly bulkQuery: string;
  private nextEndpoint = 0;
  private readonly idPath: string[] | undefined;
  private readonly timestampPath: string[] | undefined;
  /** The data stream targets of events without a `data_stream` object, by their rendered texts. */
  private readonly streamTargets = new Map<string, StreamTarget>();
  /** Action lines name `doc_type` (Elasticsearch 6 and before). */
  private typed = false;

  constructor(
    private readonly options: ElasticsearchOptions,
    private readonly encoder: SinkEncoder,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
    private readonly templates: {
      index: EventTemplate;
      action: EventTemplate;
      version: EventTemplate | undefined;
      stream: Record<DataStreamField, EventTemplate>;
    },
    /** `auth.strategy: aws`: signs each request. */
    private readonly signer: CloudSigner | undefined,
  ) {
    super(env, client, timer, { ...commonSettings(options, client), partitioned: false });
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {}))
      query.append(name, typeof value === 'string' ? value : value.value);
    query.set('timeout', `${options.request.timeout_secs}s`);
    if (options.pipeline) query.set('pipeline', options.pipeline);
    this.bulkQuery = query.toString();
    if (options.endpoint !== undefined)
      env.log.warn('DEPRECATION, use of deprecated option `endpoint`. Please use `endpoints` option instead.');
    this.endpoints = (options.endpoint === undefined ? options.endpoints! : [options.endpoint]).map((endpoint) => {
      const { uri, auth } = uriCredentials(endpoint);
      return {
        base: uri.replace(/\/+$/, ''),
        // Signed requests carry no basic auth, not even the endpoint's.
        headers: {
          ...options.request.headers,
          ...(options.auth?.strategy === 'aws' ? {} : authHeader(options.auth ?? auth)),
        },
      };
    });
    this.idPath = options.id_key === undefined ? undefined : eventFieldPath(options.id_key);
    this.timestampPath = eventFieldPath(env.globals.log_schema.timestamp_key);
  }

  protected async buildRequest(_key: string, parts: EventBatch[]): Promise<BulkRequest | undefined> {
    const items = parts.flatMap((part) => this.items(part));
    if (items.length === 0) return undefined;
    const endpoint = this.endpoints[this.nextEndpoint]!;
    this.nextEndpoint = (this.nextEndpoint + 1) % this.endpoints.length;
    const headers = {
      'content-type': 'application/x-ndjson',
      ...(this.options.compression === 'none'
        ? {}
        : { 'content-encoding': CONTENT_ENCODING[this.options.compression] }),
      ...endpoint.headers,
    };
    return this.request(`${endpoint.base}/_bulk?${this.bulkQuery}`, headers, items);
  }

  private async request(uri: string, headers: Record<string, string>, items: Uint8Array[]): Promise<BulkRequest> {
    const body = await compress(this.options.compression, Buffer.concat(items));
    return { uri, method: 'POST', headers, body, items, events: items.length };
  }

  protected override retriable(status: number): boolean {
    return status === 429 || (status >= 500 && status !== 501);
  }

  /** Vector's `ElasticsearchRetryLogic`: a 2xx with `"errors":true` failed item by item. */
  protected override async judge(response: Dispatcher.ResponseData, request: HttpRequest): Promise<Outcome> {
    const status = response.statusCode;
    const body = await response.body.text();
    if (status < 200 || status >= 300) {
      const reason = status >= 400 && status < 500 ? `client-side error, ${status}: ${body}` : `${status}: ${body}`;
      return { delivered: false, retry: this.retriable(status), reason, answered: true };
    }
    if (!body.includes('"errors":true')) return { delivered: true };
    let results: BulkItem[];
    try {
      const parsed = JSON.parse(body) as { items: Array<Record<string, BulkItem>> };
      results = parsed.items.map((item) => Object.values(item)[0] ?? {});
    } catch (error) {
      const reason = `some messages failed, could not parse response, error: ${(error as Error).message}`;
      return { delivered: false, retry: false, reason, answered: true };
    }
    const { items } = request as BulkRequest;
    const failed = results.flatMap((result, index) =>
      result.status !== undefined && (result.status < 200 || result.status >= 300) ? [index] : [],
    );
    const error = results.find((result) => result.error)?.error;
    const reason = error ? `error type: ${error.type}, reason: ${error.reason}` : `error response: ${body}`;
    const retried = this.options.request_retry_partial
      ? failed.filter((index) => retriableItem(results[index]!.status))
      : [];
    const refusedCount = failed.length - retried.length;
    const refused = refusedCount > 0 ? { count: refusedCount, reason } : undefined;
    if (retried.length === 0) return { delivered: true, refused };
    return {
      delivered: false,
      retry: true,
      reason,
      answered: true,
      refused,
      retryWith: await this.request(
        request.uri,
        request.headers,
        retried.map((index) => items[index]!),
      ),
    };
  }

  private get serverless(): boolean {
    return this.options.opensearch_service_type === 'serverless';
  }

  protected override async authorize(request: HttpRequest): Promise<HttpRequest> {
    // A serverless collection wants the payload's hash as a header.
    return this.signer ? this.signer.sign(request, { payloadHash: this.serverless }) : request;
  }

  /** A GET of `path` on the first endpoint, signed as the requests are. */
  private async get(path: string): Promise<Dispatcher.ResponseData> {
    const { base, headers } = this.endpoints[0]!;
    const request = await this.authorize({ uri: `${base}${path}`, method: 'GET', headers, body: new Uint8Array() });
    return this.fetch(request.uri, { method: 'GET', headers: request.headers });
  }

  /** Vector's `api_version`: `auto` asks the first endpoint (`GET /`) for its major version; a failure is a
   * warning and a version assumed, as Vector does for now. */
  async detectVersion(): Promise<void> {
    const { api_version, suppress_type_name } = this.options;
    if (suppress_type_name)
      this.env.log.warn(
        'DEPRECATION, use of deprecated option `suppress_type_name`. Please use `api_version` option instead.',
      );
    const version = this.serverless
      ? 8
      : api_version === 'auto'
        ? await this.askVersion()
        : Number(api_version.slice(1));
    this.typed = !suppress_type_name && version < 7;
  }

  private async askVersion(): Promise<number> {
    try {
      const response = await this.get('/');
      const body = (await response.body.json()) as { version?: { number?: string } } | null;
      const major = Number.parseInt(body?.version?.number?.split('.')[0] ?? '', 10);
      if (Number.isNaN(major))
        throw new Error('Unexpected response from Elasticsearch endpoint `/`. Consider setting `api_version` option.');
      return major;
    } catch (error) {
      const assumed = this.options.suppress_type_name ? 6 : 8;
      this.env.log.warn(
        'Failed to determine Elasticsearch API version. Please fix the reported error or set an API version explicitly via `api_version`.',
        { assumed_version: assumed, error: (error as Error).message },
      );
      return assumed;
    }
  }

  /** Vector's healthcheck: `/_cluster/health` must answer 200 (but for a serverless collection). */
  async healthcheck(): Promise<void> {
    if (this.serverless) {
      this.env.log.warn('Amazon OpenSearch Serverless does not support healthchecks. Skipping healthcheck...');
      return;
    }
    const response = await this.get('/_cluster/health');
    await response.body.dump();
    if (response.statusCode !== 200) throw new Error(`Unexpected status: ${response.statusCode}`);
  }

  /** The part's events as bulk items (those left out counted): views of one buffer, an action line and a
   * document each. */
  private items(part: EventBatch): Uint8Array[] {
    const dataStream = this.options.mode === 'data_stream';
    const rendered = {
      index: dataStream ? undefined : this.templates.index.renderEach(part),
      action: dataStream ? undefined : this.templates.action.renderEach(part),
      version: dataStream ? undefined : this.templates.version?.renderEach(part),
      stream: dataStream
        ? (Object.fromEntries(
            STREAM_FIELDS.map((field) => [field, this.templates.stream[field].renderEach(part)]),
          ) as Record<DataStreamField, Array<string | RenderFailure>>)
        : undefined,
    };
    const reader = new BatchReader(part.bytes);
    // The documents are the part's events as they are, unless a document changes: data streams add fields,
    // `id_key` is taken out, a non-object event is sent as `{}`. Then they are a batch of their own.
    let rewrite = dataStream || this.idPath !== undefined;
    for (const view of reader) if (!rewrite && view.event[0] !== Wire.Object) rewrite = true;
    const writer = rewrite ? new BatchWriter() : undefined;
    const kept: number[] = [];
    const actions: string[] = [];
    /** Action lines without an id, by action and index: most events share one. */
    const plainActions = new Map<string, string>();
    for (const view of reader) {
      // A document changes on its encoding, not decoded to JS and encoded again (~20 µs an event): bulk mode
      // takes its `id_key`, data streams add fields and move the timestamp; a non-object event is `{}`.
      let document = view.event[0] === Wire.Object ? view.event : EMPTY_OBJECT;
      const edits: FieldEdit[] = [];
      let target: { index: string; action: string } | undefined;
      if (rendered.stream) {
        const stream = this.streamTarget(reader.readPath(document, ['data_stream']), rendered.stream, view.index);
        if (stream === undefined) continue;
        ({ target } = stream);
        if (stream.fields) edits.push(['data_stream', stream.fields]);
        document = this.moveTimestamp(reader, document, edits);
      } else target = this.bulkTarget(rendered, view.index);
      if (target === undefined) continue;
      let id: RemapValue | undefined;
      if (this.idPath !== undefined) {
        document = settled(document, edits, this.idPath[0]!);
        id = reader.readPath(document, this.idPath);
        if (id !== undefined) document = without(document, this.idPath, edits);
      }
      // External versions go with an id (Vector's `DocumentMetadata::IdAndVersion`).
      const version = rendered.version && this.version(rendered.version[view.index]!);
      if (typeof id === 'string') actions.push(this.actionLine(target, id, version));
      else {
        const key = `${target.action}\n${target.index}`;
        let line = plainActions.get(key);
        if (line === undefined) plainActions.set(key, (line = this.actionLine(target, undefined, undefined)));
        actions.push(line);
      }
      kept.push(view.index);
      if (document === view.event && edits.length === 0) writer?.appendRaw(view.record);
      else writer?.appendWriting(view.kind, view.metadata, writeEdited, { value: document, edits });
    }
    // Without a writer the events are the documents, the part itself when every one has a target.
    const documents = this.encoder.encodeEach(
      writer ? toBatch(writer.finish()) : kept.length === part.count ? part : pickedEvents(part, kept),
    );
    let size = 0;
    for (const [at, document] of documents.entries())
      if (document !== undefined) size += Buffer.byteLength(actions[at]!) + document.length + 2;
    const out = Buffer.allocUnsafe(size);
    const items: Uint8Array[] = [];
    let end = 0;
    for (const [at, document] of documents.entries()) {
      if (document === undefined) continue;
      const start = end;
      end += out.write(actions[at]!, end);
      out[end++] = 0x0a;
      out.set(document, end);
      end += document.length;
      out[end++] = 0x0a;
      items.push(out.subarray(start, end));
    }
    return items;
  }

  /** The JSON action line of a document (`{"index":{"_index":…}}`). */
  private actionLine(
    target: { index: string; action: string },
    id: string | undefined,
    version: number | undefined,
  ): string {
    const meta: Record<string, string | number> = {};
    if (id !== undefined) meta._id = id;
    meta._index = target.index;
    if (this.typed) meta._type = this.options.doc_type;
    if (id !== undefined && version !== undefined) {
      meta.version_type = this.options.bulk.version_type;
      meta.version = version;
    }
    return JSON.stringify({ [target.action]: meta });
  }

  /** A rendered `bulk.version` as the integer it must be; undefined (logged) otherwise. */
  private version(text: string | RenderFailure): number | undefined {
    if (typeof text !== 'string') {
      templateFailed(this.env, 'version', text.error, false);
      return undefined;
    }
    if (/^\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
    this.env.log.warn(`Cannot parse version "${text}" as integer`, { internal_log_rate_key: 'version_parse' });
    return undefined;
  }

  /** Bulk mode: the rendered index (or the fallback) and action; undefined drops the event (counted). */
  private bulkTarget(
    rendered: { index?: Array<string | RenderFailure>; action?: Array<string | RenderFailure> },
    at: number,
  ): { index: string; action: string } | undefined {
    let index = rendered.index![at]!;
    if (typeof index !== 'string') {
      const fallback = this.options.bulk.template_fallback_index;
      templateFailed(this.env, 'index', index.error, fallback === undefined);
      if (fallback === undefined) return undefined;
      index = fallback;
    }
    const action = rendered.action![at]!;
    if (typeof action !== 'string') {
      templateFailed(this.env, 'bulk_action', action.error, true);
      return undefined;
    }
    if (!(BULK_ACTIONS as readonly string[]).includes(action)) {
      templateFailed(this.env, 'bulk_action', `"${action}" is not a bulk action (index, create, update)`, true);
      return undefined;
    }
    return { index, action };
  }

  /**
   * Data stream mode: `<type>-<dataset>-<namespace>` with `create`, from the event's `data_stream` (its
   * value, decoded); with `sync_fields`, the encoded `data_stream` object the event gets (its own fields,
   * and those it lacks rendered). Undefined drops the event (counted). An event without a `data_stream`
   * object gets one of the few its rendered texts make, each made once.
   */
  private streamTarget(
    dataStream: RemapValue | undefined,
    rendered: Record<DataStreamField, Array<string | RenderFailure>>,
    at: number,
  ): StreamTarget | undefined {
    const existing = isObject(dataStream) ? dataStream : undefined;
    const texts = STREAM_FIELDS.map((field) => rendered[field][at]!);
    if (existing !== undefined || texts.some((text) => typeof text !== 'string'))
      return this.newStreamTarget(existing, texts);
    const key = JSON.stringify(texts);
    let target = this.streamTargets.get(key);
    if (target === undefined) {
      if (this.streamTargets.size >= 10_000) this.streamTargets.clear();
      this.streamTargets.set(key, (target = this.newStreamTarget(undefined, texts)!));
    }
    return target;
  }

  /** `streamTarget` of an event's `data_stream` object (undefined: none) and its rendered texts. */
  private newStreamTarget(
    existing: Record<string, RemapValue> | undefined,
    texts: ReadonlyArray<string | RenderFailure>,
  ): StreamTarget | undefined {
    const { auto_routing, sync_fields } = this.options.data_stream;
    const routed = auto_routing ? existing : undefined;
    const parts: string[] = [];
    for (const [i, field] of STREAM_FIELDS.entries()) {
      const value = routed?.[field];
      const option = `data_stream.${field}`;
      if (value !== undefined) {
        const text = lossyString(value);
        if (!validStreamPart(text, field)) {
          templateFailed(this.env, option, `auto-routed ${option} value is not a valid data-stream identifier`, true);
          return undefined;
        }
        parts.push(text);
        continue;
      }
      const text = texts[i]!;
      if (typeof text !== 'string') {
        templateFailed(this.env, option, text.error, true);
        return undefined;
      }
      parts.push(text);
    }
    const target = { index: parts.filter((part) => part !== '').join('-'), action: 'create' };
    if (!sync_fields) return { target };
    const object: Record<string, RemapValue> = { ...existing };
    for (const [i, field] of STREAM_FIELDS.entries()) {
      const text = texts[i];
      if (object[field] === undefined && typeof text === 'string') object[field] = text;
    }
    return { target, fields: encode(object) };
  }

  /**
   * A data stream's document with its timestamp (`log_schema.timestamp_key`) moved to `@timestamp`: the
   * edits to make, and the document (with a nested timestamp taken out).
   */
  private moveTimestamp(reader: BatchReader, document: Uint8Array, edits: FieldEdit[]): Uint8Array {
    const path = this.timestampPath;
    if (path === undefined || path.join('.') === '@timestamp') return document;
    const current = settled(document, edits, path[0]!);
    const at = reader.findEncoded(current, path);
    if (at < 0) return current;
    const timestamp = current.slice(at, reader.foundEnd);
    const moved = without(settled(current, edits, '@timestamp'), path, edits);
    edits.push(['@timestamp', timestamp]);
    return moved;
  }
}

/** `document` without the field at `path`: a top-level one as an edit, a nested one taken out now. */
function without(document: Uint8Array, path: readonly string[], edits: FieldEdit[]): Uint8Array {
  const current = settled(document, edits, path[0]!);
  if (path.length > 1) return withoutField(current, path);
  edits.push([path[0]!, undefined]);
  return current;
}

/** `document` with the pending `edits` made (and none left pending) when one of them is to the field `name`:
 * what is read or changed there next sees them. */
function settled(document: Uint8Array, edits: FieldEdit[], name: string): Uint8Array {
  if (!edits.some(([edited]) => edited === name)) return document;
  const w = new ByteWriter();
  writeEdited(w, { value: document, edits });
  edits.length = 0;
  return w.finish();
}

/** Where a data stream's event goes, and the encoded `data_stream` object it gets (`sync_fields`). */
interface StreamTarget {
  target: { index: string; action: string };
  fields?: Uint8Array;
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildElasticsearchSink(
  parsed: ElasticsearchOptions,
  env: ComponentEnv,
  timer: RetryTimer,
): Promise<Sink> {
  const encoder = new SinkEncoder(
    encodeOptions({ codec: 'json', ...parsed.encoding }, undefined, 'message', env.globals.log_schema.message_key),
    env,
  );
  const template = (option: string, text: string) => EventTemplate.build(option, text, env);
  const { auth } = parsed;
  const service = parsed.opensearch_service_type === 'serverless' ? 'aoss' : 'es';
  const signer =
    auth?.strategy === 'aws' ? await CloudSigner.build(auth, parsed.aws!.region!, service, env.log) : undefined;
  const sink = new ElasticsearchSink(
    parsed,
    encoder,
    env,
    await httpClient(parsed.tls, env),
    timer,
    {
      index: await template('bulk.index', parsed.bulk.index),
      action: await template('bulk.action', parsed.bulk.action),
      version: parsed.bulk.version === undefined ? undefined : await template('bulk.version', parsed.bulk.version),
      stream: {
        type: await template('data_stream.type', parsed.data_stream.type),
        dataset: await template('data_stream.dataset', parsed.data_stream.dataset),
        namespace: await template('data_stream.namespace', parsed.data_stream.namespace),
      },
    },
    signer,
  );
  await sink.detectVersion();
  return sink;
}

const elasticsearch = httpLogSink(
  'elasticsearch',
  'Index observability events in Elasticsearch.',
  options,
  buildElasticsearchSink,
);

export default elasticsearch;
