// The `loki` sink, as Vector's: each event becomes a Loki entry — its line the event encoded with `encoding`,
// its timestamp the event's (`log_schema.timestamp_key`, else the time now) — under the labels that
// `labels` render to, with the `structured_metadata` pairs; keys and values are templates, and a key ending in
// `*` expands an object into one pair per field. Entries are grouped into streams by their labels, sorted by
// time, and pushed to `endpoint` + `path` as Loki's protobuf push request, snappy-compressed (the default), or
// with any other `compression` as its JSON push request. `tenant_id` renders per event into the
// X-Scope-OrgID header, and events are batched per tenant. `out_of_order_action` drop and rewrite_timestamp
// compare each entry with the newest one sent for its tenant, one request at a time.
//
// Requests, retries (408, 429, 5xx but 501, and failed requests), concurrency and TLS are those of every
// HTTP sink (support/http-batch-sink.ts). The healthcheck asks `/ready`, or `/` where that is not found.
// `auth.strategy: aws` signs every request (signature version 4) for `auth.service` in `auth.auth.region`:
// Vector's loki takes the strategy and signs nothing; its http sink signs so, as a user of it expects.

import { fileURLToPath } from 'node:url';
import type * as Protobuf from 'protobufjs';
import { protobufjs } from '../support/protobufjs.js';
import { z } from 'zod';
import { BatchReader, BatchWriter, withoutField } from '../../../runtime/engine.js';
import type { RemapValue } from '../../../runtime/index.js';
import { timestampNanosAt, timestampSecondsAt, Wire } from '../../../abi/codec.js';
import { templateOption, templateToRemap } from '../../config/template.js';
import type { ComponentEnv, Sink } from '../component.js';
import { LOKI_PUSH_PROTO } from '../../package-files.js';
import { toBatch, type EventBatch } from '../../topology/batch.js';
import { compress, CONTENT_ENCODING } from '../support/compression.js';
import { encodeOptions, encodingSchema, exceptField, SinkEncoder } from '../support/encoding.js';
import { eventFieldPath, lossyString } from '../support/event-fields.js';
import { EventTemplate, templateFailed } from '../support/event-template.js';
import {
  type AuthOptions,
  authHeader,
  authSchema,
  batchSchema,
  commonSettings,
  HttpBatchSink,
  httpLogSink,
  type HttpRequest,
  httpClient,
  type HttpClient,
  httpTlsSchema,
  httpUri,
  requestSchema,
  TWO_CREDENTIALS,
  uriCredentials,
} from '../support/http-batch-sink.js';
import type { RetryTimer } from '../support/retry.js';
import { awsHttpAuthSchema, type CloudSigner, httpAuthSigner } from '../support/cloud-auth.js';

/** Loki's label names (Prometheus'), a trailing `*` expanding an object; `*` alone expands it as is. */
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;

const templatePairs = z.record(z.string(), templateOption());

const options = z
  .strictObject({
    endpoint: httpUri,
    path: z.string().default('/loki/api/v1/push'),
    encoding: encodingSchema,
    tenant_id: templateOption().optional(),
    labels: templatePairs,
    remove_label_fields: z.boolean().default(false),
    structured_metadata: templatePairs.default({}),
    remove_structured_metadata_fields: z.boolean().default(false),
    remove_timestamp: z.boolean().default(true),
    compression: z.enum(['snappy', 'none', 'gzip', 'zlib', 'zstd']).default('snappy'),
    out_of_order_action: z.enum(['accept', 'drop', 'rewrite_timestamp']).default('accept'),
    auth: z.discriminatedUnion('strategy', [...authSchema.options, awsHttpAuthSchema]).optional(),
    request: requestSchema,
    batch: batchSchema({ max_bytes: 1_000_000, max_events: 100_000, timeout_secs: 1 }),
    tls: httpTlsSchema.optional(),
  })
  .check((ctx) => {
    const { labels, structured_metadata, auth, endpoint } = ctx.value;
    if (auth !== undefined && URL.canParse(endpoint) && uriCredentials(endpoint).auth !== undefined)
      ctx.issues.push({ code: 'custom', input: auth, path: ['auth'], message: TWO_CREDENTIALS });
    if (Object.keys(labels).length === 0) {
      ctx.issues.push({
        code: 'custom',
        input: labels,
        path: ['labels'],
        message: '`labels` must include at least one label',
      });
    }
    for (const [option, pairs] of [
      ['labels', labels],
      ['structured_metadata', structured_metadata],
    ] as const) {
      for (const key of Object.keys(pairs)) {
        const issue = keyIssue(key);
        if (issue !== undefined) ctx.issues.push({ code: 'custom', input: key, path: [option, key], message: issue });
      }
    }
  });

type LokiOptions = z.infer<typeof options>;

/** Why a `labels` key is invalid (Vector's `valid_label_name`: a template with fields is checked once
 * rendered, by Loki), or undefined. */
function keyIssue(key: string): string | undefined {
  let dynamic: boolean;
  try {
    dynamic = templateToRemap(key, { timestampKey: '' }).isDynamic;
  } catch (error) {
    return (error as Error).message;
  }
  const name = key.trim();
  if (dynamic || name === '*' || LABEL_NAME.test(name)) return undefined;
  return `invalid label name "${key}": expected [A-Za-z_][A-Za-z0-9_]*, a prefix ending in "*", or "*"`;
}

/** A key and value template pair of `labels` or `structured_metadata`. */
interface TemplatePair {
  key: EventTemplate;
  value: EventTemplate;
}

/** An entry's labels: the pairs sorted by key, Vector's stream key of them, and Loki's label set text. */
interface LabelSet {
  pairs: ReadonlyArray<[string, string]>;
  key: string;
  text: string;
}

/** Labels sorted by key; structured metadata (`sort` false) in the order its pairs expanded. */
function labelSetOf(pairs: Array<[string, string]>, sort = true): LabelSet {
  if (sort) pairs.sort(byKey);
  return { pairs, key: streamKey(pairs), text: labelSet(pairs) };
}

/** One event as Loki gets it; its time as seconds and nanoseconds past them, as the event encodes it. */
interface Entry {
  labels: LabelSet;
  seconds: number;
  nanos: number;
  line: string;
  structuredMetadata: ReadonlyArray<[string, string]>;
}

/** The entry's time `a` against `b`'s: negative when earlier. */
const compareTimes = (a: { seconds: number; nanos: number }, b: { seconds: number; nanos: number }) =>
  a.seconds - b.seconds || a.nanos - b.nanos;

/** Nanoseconds since the epoch, in decimal (the JSON push request's timestamps). */
const nanosText = ({ seconds, nanos }: Entry) => (BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString();

/** How many rendered pair lists a sink keeps, by their texts, before it starts over. */
const MAX_PAIR_LISTS = 10_000;

/** Vector's `slugify_text`: what an expanded key may hold. */
const slugify = (text: string) => text.replace(/[^0-9A-Za-z_]/g, '_').toLowerCase();

/**
 * The rendered pairs of one event (Vector's `pair_expansion`): a key ending in `*` expands the value, a JSON
 * object, into one pair per field (`prefix` + field, slugified; null fields left out); a plain key is set as
 * is and wins over an expanded one. `warn` hears of a value that does not expand.
 */
function expandPairs(rendered: Array<[string, string]>, warn: (value: string, error: string) => void) {
  const fixed = new Map<string, string>();
  const expanded = new Map<string, string>();
  for (const [key, value] of rendered) {
    if (!key.endsWith('*')) {
      fixed.set(key, value);
      continue;
    }
    let object: unknown;
    try {
      object = JSON.parse(value);
    } catch (error) {
      warn(value, (error as Error).message);
      continue;
    }
    if (object === null || typeof object !== 'object' || Array.isArray(object)) {
      warn(value, 'expected a JSON object');
      continue;
    }
    for (const [field, fieldValue] of Object.entries(object)) {
      if (fieldValue !== null)
        expanded.set(slugify(`${key.slice(0, -1)}${field}`), lossyString(fieldValue as RemapValue));
    }
  }
  for (const [key, value] of fixed) expanded.set(key, value);
  return [...expanded];
}

/** Vector's stream key: the sorted labels, each key and value with `\` and `,` escaped, joined by commas. */
function streamKey(labels: ReadonlyArray<[string, string]>): string {
  let key = '';
  for (const [name, value] of labels) key += `${escapeKeyText(name)},${escapeKeyText(value)},`;
  return key;
}

const escapeKeyText = (text: string) =>
  text.includes('\\') || text.includes(',') ? text.replace(/[\\,]/g, (c) => `\\${c}`) : text;

/** Loki's label set text (Vector's `encode_labels_map_to_string`, which leaves values unescaped). */
const labelSet = (labels: ReadonlyArray<[string, string]>) =>
  `{${labels
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(', ')}}`;

const byKey = (a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** What an event without labels gets, as in Vector. */
const AGENT_LABELS = labelSetOf([['agent', 'vector']]);

class LokiSink extends HttpBatchSink {
  private readonly uri: string;
  /** `endpoint` without credentials, and the auth in force (`auth`, or the endpoint's). */
  private readonly endpoint: string;
  private readonly auth: AuthOptions | undefined;
  private readonly headers: Record<string, string>;
  /** The newest timestamp sent per partition key, for `out_of_order_action`. */
  private readonly latest = new Map<string, { seconds: number; nanos: number }>();
  private readonly timestampPath: string[];
  /**
   * The pairs that rendered texts without an expansion (a key ending in `*`) give, by those texts: a stream
   * mostly repeats a few label sets, each then made and sorted once.
   */
  private readonly pairLists = { labels: new Map<string, LabelSet>(), metadata: new Map<string, LabelSet>() };

  constructor(
    private readonly options: LokiOptions,
    private readonly encoder: SinkEncoder,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
    private readonly tenant: EventTemplate | undefined,
    private readonly labels: TemplatePair[],
    private readonly structuredMetadata: TemplatePair[],
    private readonly pushRequest: Protobuf.Type | undefined,
    /** `auth.strategy: aws`: signs each request. */
    private readonly signer: CloudSigner | undefined,
  ) {
    super(env, client, timer, {
      ...commonSettings(options, client),
      // Timestamps compared with the newest one sent need the requests in order.
      concurrency: options.out_of_order_action === 'accept' ? undefined : 1,
      partitioned: tenant !== undefined,
    });
    const endpoint = uriCredentials(options.endpoint);
    this.endpoint = endpoint.uri;
    this.auth = options.auth?.strategy === 'aws' ? undefined : (options.auth ?? endpoint.auth);
    this.uri = joinPath(this.endpoint, options.path);
    const { compression } = options;
    this.headers = {
      'content-type': compression === 'snappy' ? 'application/x-protobuf' : 'application/json',
      ...(compression === 'none' ? {} : { 'content-encoding': CONTENT_ENCODING[compression] }),
      ...authHeader(this.auth),
    };
    this.timestampPath = eventFieldPath(env.globals.log_schema.timestamp_key) ?? [];
  }

  /** Events by tenant (JSON of the rendered `tenant_id`, null for none): an event whose tenant does not
   * render goes without one, as in Vector. */
  protected override partition(batch: EventBatch): Map<string, EventBatch> {
    const tenants = this.tenant!.renderEach(batch);
    const writers = new Map<string, BatchWriter>();
    for (const { index, record } of new BatchReader(batch.bytes)) {
      const tenant = tenants[index]!;
      if (typeof tenant !== 'string') templateFailed(this.env, 'tenant_id', tenant.error, false);
      const key = JSON.stringify(typeof tenant === 'string' ? tenant : null);
      let writer = writers.get(key);
      if (writer === undefined) writers.set(key, (writer = new BatchWriter()));
      writer.appendRaw(record);
    }
    return new Map([...writers].map(([key, writer]) => [key, toBatch(writer.finish())]));
  }

  protected async buildRequest(key: string, parts: EventBatch[]): Promise<HttpRequest | undefined> {
    const entries = parts.flatMap((part) => this.entries(part));
    const kept = this.filterOutOfOrder(key, entries);
    if (kept.length === 0) return undefined;
    const tenant = this.options.tenant_id === undefined ? null : (JSON.parse(key || 'null') as string | null);
    return {
      uri: this.uri,
      method: 'POST',
      headers: tenant === null ? this.headers : { ...this.headers, 'x-scope-orgid': tenant },
      body: await compress(this.options.compression, this.body(kept)),
      events: kept.length,
    };
  }

  /** Vector's healthcheck: `/ready` must answer 200, or the endpoint itself where there is no `/ready`. */
  async healthcheck(): Promise<void> {
    let status = await this.status(joinPath(this.endpoint, 'ready'));
    if (status === 404) status = await this.status(joinPath(this.endpoint, ''));
    if (status !== 200) throw new Error(`A non-successful status returned: ${status}`);
  }

  protected override async authorize(request: HttpRequest): Promise<HttpRequest> {
    return this.signer ? this.signer.sign(request) : request;
  }

  private async status(uri: string): Promise<number> {
    const request = await this.authorize({
      uri,
      method: 'GET',
      headers: authHeader(this.auth),
      body: new Uint8Array(),
    });
    const response = await this.fetch(uri, { method: 'GET', headers: request.headers });
    await response.body.dump();
    return response.statusCode;
  }

  /** The part's events as entries, in order (those that cannot be encoded left out, counted). */
  private entries(part: EventBatch): Entry[] {
    const { remove_label_fields, remove_structured_metadata_fields } = this.options;
    // As Vector does: labels from the event, then structured metadata from it without the label fields, the
    // timestamp from it without those either.
    const labels = this.renderPairs(part, this.labels, 'label', this.pairLists.labels, true);
    const withoutLabels = remove_label_fields ? this.withoutFields(part, templateFields(this.labels)) : part;
    const metadata = this.renderPairs(
      withoutLabels,
      this.structuredMetadata,
      'structured_metadata',
      this.pairLists.metadata,
      false,
    );
    const stripped = remove_structured_metadata_fields
      ? this.withoutFields(withoutLabels, templateFields(this.structuredMetadata))
      : withoutLabels;
    const times = this.times(stripped);
    // With remove_timestamp the encoder leaves the timestamp out (see buildLokiSink).
    const lines = this.encoder.encodeEach(stripped);
    const entries: Entry[] = [];
    let unlabeled = 0;
    lines.forEach((line, index) => {
      if (line === undefined) return;
      let entryLabels = labels[index]!;
      if (entryLabels.pairs.length === 0) {
        unlabeled++;
        entryLabels = AGENT_LABELS;
      }
      entries.push({
        labels: entryLabels,
        seconds: times[2 * index]!,
        nanos: times[2 * index + 1]!,
        line: Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString('utf8'),
        structuredMetadata: metadata[index]!.pairs,
      });
    });
    if (unlabeled > 0) {
      this.env.telemetry.error('condition_failed', 'processing', unlabeled);
      this.env.log.error('Event had no labels. Adding default `agent` label.', {
        error_code: 'unlabeled_event',
        error_type: 'condition_failed',
        stage: 'processing',
        internal_log_rate_key: 'unlabeled_event',
      });
    }
    return entries;
  }

  /**
   * Each event's pairs, rendered and expanded (`labelSetOf`); a pair whose key or value does not render is
   * left out. Lists without an expansion are kept in `made` by their texts.
   */
  private renderPairs(
    part: EventBatch,
    pairs: TemplatePair[],
    kind: string,
    made: Map<string, LabelSet>,
    sort: boolean,
  ): LabelSet[] {
    const rendered = pairs.map(({ key, value }) => ({ keys: key.renderEach(part), values: value.renderEach(part) }));
    const warn = (value: string, error: string) =>
      this.env.log.warn(`Failed to expand dynamic ${kind}.`, { value, error, internal_log_rate_key: `expand_${kind}` });
    return Array.from({ length: part.count }, (_, index) => {
      const texts: Array<[string, string]> = [];
      let expands = false;
      for (const { keys, values } of rendered) {
        const keyText = keys[index]!;
        const valueText = values[index]!;
        if (typeof keyText !== 'string') templateFailed(this.env, `${kind}_key`, keyText.error, false);
        if (typeof valueText !== 'string') templateFailed(this.env, `${kind}_value`, valueText.error, false);
        if (typeof keyText === 'string' && typeof valueText === 'string') {
          texts.push([keyText, valueText]);
          expands ||= keyText.endsWith('*');
        }
      }
      // An expansion may warn: it is done for every event.
      if (expands) return labelSetOf(expandPairs(texts, warn), sort);
      const textsKey = streamKey(texts);
      let list = made.get(textsKey);
      if (list === undefined) {
        if (made.size >= MAX_PAIR_LISTS) made.clear();
        made.set(textsKey, (list = labelSetOf(expandPairs(texts, warn), sort)));
      }
      return list;
    });
  }

  /** Each event's time, as seconds and nanoseconds past them (two numbers an event): its timestamp field's,
   * else the time now. */
  private times(part: EventBatch): Float64Array {
    const times = new Float64Array(2 * part.count);
    const nowMs = Date.now();
    const reader = new BatchReader(part.bytes);
    for (const cursor = reader.cursor(); cursor.next(); ) {
      const at =
        this.timestampPath.length > 0 ? reader.findEncoded(cursor.bytes, this.timestampPath, cursor.eventAt) : -1;
      const i = 2 * cursor.index;
      if (at >= 0 && cursor.bytes[at] === Wire.Timestamp) {
        times[i] = timestampSecondsAt(cursor.bytes, at);
        times[i + 1] = timestampNanosAt(cursor.bytes, at);
      } else {
        times[i] = Math.floor(nowMs / 1000);
        times[i + 1] = (nowMs % 1000) * 1_000_000;
      }
    }
    return times;
  }

  /** The part with the event fields at `paths` removed. */
  private withoutFields(part: EventBatch, paths: string[][]): EventBatch {
    if (paths.length === 0) return part;
    const writer = new BatchWriter();
    for (const { kind, metadata, event } of new BatchReader(part.bytes)) {
      writer.appendEncoded(
        kind,
        metadata,
        paths.reduce((value, path) => withoutField(value, path), event),
      );
    }
    return toBatch(writer.finish());
  }

  /** `out_of_order_action` against the newest timestamp sent for the partition (Vector's `RecordFilter`). */
  private filterOutOfOrder(key: string, entries: Entry[]): Entry[] {
    const action = this.options.out_of_order_action;
    const kept: Entry[] = [];
    let dropped = 0;
    let rewritten = 0;
    for (const entry of entries) {
      const latest = this.latest.get(key);
      if (latest === undefined || compareTimes(entry, latest) >= 0) {
        this.latest.set(key, entry);
        kept.push(entry);
      } else if (action === 'accept') {
        kept.push(entry);
      } else if (action === 'rewrite_timestamp') {
        rewritten++;
        kept.push({ ...entry, seconds: latest.seconds, nanos: latest.nanos });
      } else {
        dropped++;
      }
    }
    if (rewritten > 0)
      this.env.metrics.counter('rewritten_timestamp_events_total', this.env.telemetry.tags).increment(rewritten);
    if (dropped > 0) {
      this.env.telemetry.error('condition_failed', 'processing');
      this.env.telemetry.discarded(dropped, true);
      this.env.log.error('Dropping out-of-order event(s).', {
        error_code: 'out_of_order',
        error_type: 'condition_failed',
        stage: 'processing',
        count: dropped,
        internal_log_rate_key: 'out_of_order',
      });
    }
    return kept;
  }

  /** The push request: streams by labels, in order of first appearance, their entries sorted by time. */
  private body(entries: Entry[]): Uint8Array {
    const streams = new Map<string, { labels: LabelSet; entries: Entry[] }>();
    for (const entry of entries) {
      let stream = streams.get(entry.labels.key);
      if (stream === undefined) streams.set(entry.labels.key, (stream = { labels: entry.labels, entries: [] }));
      stream.entries.push(entry);
    }
    for (const stream of streams.values()) stream.entries.sort(compareTimes);
    if (this.pushRequest !== undefined) {
      // Plain objects of the message's shape: `fromObject` copied each into a message and each timestamp's
      // seconds into a Long.
      return this.pushRequest
        .encode({
          streams: [...streams.values()].map((stream) => ({
            labels: stream.labels.text,
            entries: stream.entries.map((entry) => ({
              timestamp: { seconds: entry.seconds, nanos: entry.nanos },
              line: entry.line,
              structuredMetadata: entry.structuredMetadata.map(([name, value]) => ({ name, value })),
            })),
          })),
        })
        .finish();
    }
    const json = {
      streams: [...streams.values()].map((stream) => ({
        stream: Object.fromEntries(stream.labels.pairs),
        values: stream.entries.map((entry) => [
          nanosText(entry),
          entry.line,
          Object.fromEntries(entry.structuredMetadata),
        ]),
      })),
    };
    return Buffer.from(JSON.stringify(json));
  }
}

/** `endpoint` with `path` appended (Vector's `append_path`): one `/` between them. */
function joinPath(endpoint: string, path: string): string {
  const url = new URL(endpoint);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return url.toString();
}

/** The event fields the pairs' value templates read (what `remove_*_fields` removes). */
function templateFields(pairs: TemplatePair[]): string[][] {
  return pairs.flatMap(({ value }) =>
    value.fields.flatMap((field) => {
      const path = eventFieldPath(field);
      return path === undefined ? [] : [path];
    }),
  );
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildLokiSink(parsed: LokiOptions, env: ComponentEnv, timer: RetryTimer): Promise<Sink> {
  const encoding = encodeOptions(parsed.encoding, undefined, 'message', env.globals.log_schema.message_key);
  const timestampKey = env.globals.log_schema.timestamp_key;
  const encoder = new SinkEncoder(parsed.remove_timestamp ? exceptField(encoding, timestampKey) : encoding, env);
  const template = (option: string, text: string) => EventTemplate.build(option, text, env);
  const pairs = (option: string, table: Record<string, string>) =>
    Promise.all(
      Object.entries(table).map(async ([key, value]) => ({
        key: await template(`${option}[key]`, key.trim()),
        value: await template(`${option}[value]`, value),
      })),
    );
  // Snappy compression means the protobuf push request, as in Vector.
  const protobuf = parsed.compression === 'snappy' ? protobufjs() : undefined;
  return new LokiSink(
    parsed,
    encoder,
    env,
    await httpClient(parsed.tls, env),
    timer,
    parsed.tenant_id === undefined ? undefined : await template('tenant_id', parsed.tenant_id),
    await pairs('labels', parsed.labels),
    await pairs('structured_metadata', parsed.structured_metadata),
    protobuf?.loadSync(fileURLToPath(LOKI_PUSH_PROTO), new protobuf.Root()).lookupType('logproto.PushRequest'),
    parsed.auth?.strategy === 'aws' ? await httpAuthSigner(parsed.auth, env.log) : undefined,
  );
}

const loki = httpLogSink('loki', 'Deliver log event data to the Loki aggregation system.', options, buildLokiSink);

export default loki;
