// The `splunk_hec_logs` sink, as Vector's: events sent to Splunk's HTTP Event Collector with `default_token`.
// `endpoint_target: event` posts to `/services/collector/event` one JSON object per event — the event
// (encoded with `encoding`: a JSON codec's object as is, any other codec's text as a string), its
// `indexed_fields` as `fields`, its timestamp (`timestamp_key`, taken out of the event) as `time` in seconds,
// its `host_key` value as `host`, and `index`, `source`, `sourcetype` rendered from their templates; with
// `auto_extract_timestamp` the timestamp stays in the event for Splunk to find. `endpoint_target: raw` posts the
// encoded events, one after another as Vector does, to `/services/collector/raw`, with index, source,
// sourcetype and host in the query string (events are batched per their values).
//
// Tokens (the passthrough token of events from the splunk_hec source), indexer acknowledgements, templates and
// the healthcheck are the HEC machinery both HEC sinks share (support/splunk-hec.ts); requests, retries,
// concurrency and TLS are those of every HTTP sink (support/http-batch-sink.ts).

import { z } from 'zod';
import { BatchReader, BatchWriter } from '../../../runtime/engine.js';
import { type RemapValue, Timestamp } from '../../../runtime/index.js';
import type { ComponentEnv, Sink } from '../component.js';
import { toBatch, type EventBatch } from '../../topology/batch.js';
import { encodeOptions, encodingSchema, SinkEncoder } from '../support/encoding.js';
import { eventFieldPath, fieldAt, lossyString } from '../support/event-fields.js';
import { httpLogSink, type HttpRequest, httpClient, type HttpClient } from '../support/http-batch-sink.js';
import type { RetryTimer } from '../support/retry.js';
import {
  HecBatchSink,
  hecSinkFields,
  hecTemplates,
  type HecTemplates,
  METADATA_FIELDS,
} from '../support/splunk-hec.js';

const options = z
  .strictObject({
    ...hecSinkFields,
    endpoint_target: z.enum(['event', 'raw']).default('event'),
    timestamp_key: z.string().optional(),
    indexed_fields: z.array(z.string()).default([]),
    auto_extract_timestamp: z.boolean().optional(),
    encoding: encodingSchema,
  })
  .check((ctx) => {
    if (ctx.value.auto_extract_timestamp !== undefined && ctx.value.endpoint_target === 'raw') {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value.auto_extract_timestamp,
        path: ['auto_extract_timestamp'],
        message: '`auto_extract_timestamp` cannot be set for the `raw` endpoint',
      });
    }
  });

type HecOptions = z.infer<typeof options>;

/** Splunk's query string encoding (Vector's `NON_ALPHANUMERIC` percent-encoding). */
const percentEncode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[0-9A-Za-z]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

class SplunkHecLogsSink extends HecBatchSink {
  private readonly hostPath: string[] | undefined;
  private readonly timestampPath: string[] | undefined;
  private readonly indexedFields: Array<{ name: string; path: string[] }>;

  constructor(
    private readonly options: HecOptions,
    private readonly encoder: SinkEncoder,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
    templates: HecTemplates,
  ) {
    super(options, env, client, timer, templates);
    const { log_schema } = env.globals;
    this.hostPath = eventFieldPath(options.host_key ?? log_schema.host_key);
    this.timestampPath = eventFieldPath(options.timestamp_key ?? log_schema.timestamp_key);
    this.indexedFields = options.indexed_fields.flatMap((name) => {
      const path = eventFieldPath(name);
      return path === undefined ? [] : [{ name, path }];
    });
  }

  /** Events by their passthrough token and, on the raw endpoint, their index, source, sourcetype and host
   * (JSON of the five, null where unset). */
  protected override partition(batch: EventBatch): Map<string, EventBatch> {
    const raw = this.options.endpoint_target === 'raw';
    const rendered = raw ? this.renderMetadata(batch) : {};
    const reader = new BatchReader(batch.bytes);
    const writers = new Map<string, BatchWriter>();
    for (const view of reader) {
      const host = raw && this.hostPath && reader.readPath(view.event, this.hostPath);
      const token = this.passthroughToken(reader, view);
      const key = JSON.stringify([
        ...METADATA_FIELDS.map((field) => rendered[field]?.[view.index] ?? null),
        typeof host === 'string' ? host : null,
        token,
      ]);
      let writer = writers.get(key);
      if (writer === undefined) writers.set(key, (writer = new BatchWriter()));
      writer.appendRaw(view.record);
    }
    return new Map([...writers].map(([key, writer]) => [key, toBatch(writer.finish())]));
  }

  protected async buildRequest(key: string, parts: EventBatch[]): Promise<HttpRequest | undefined> {
    const raw = this.options.endpoint_target === 'raw';
    const payloads = parts.flatMap((part) => (raw ? this.rawPayloads(part) : this.eventPayloads(part)));
    if (payloads.length === 0) return undefined;
    let query = '';
    const [index, source, sourcetype, host, token] = JSON.parse(key) as Array<string | null>;
    if (raw) {
      const pairs = Object.entries({ source, sourcetype, index, host }).filter(([, value]) => value !== null);
      query = pairs.map(([name, value]) => `${name}=${percentEncode(value!)}`).join('&');
    } else if (this.options.auto_extract_timestamp) {
      query = 'auto_extract_timestamp=true';
    }
    return this.hecRequest(raw ? '/services/collector/raw' : '/services/collector/event', query, token, payloads);
  }

  /** Raw endpoint: the events encoded, without framing. */
  private rawPayloads(part: EventBatch): Uint8Array[] {
    return this.encoder.encodeEach(part).filter((payload) => payload !== undefined);
  }

  /** Event endpoint: one HEC event object per event. */
  private eventPayloads(part: EventBatch): Buffer[] {
    const rendered = this.renderMetadata(part);
    const reader = new BatchReader(part.bytes);
    const writer = new BatchWriter();
    const envelopes: Array<{ fields: Record<string, RemapValue>; time?: number; host?: string }> = [];
    const extract = !this.options.auto_extract_timestamp;
    for (const view of reader) {
      const { kind, metadata, event: decoded } = reader.decodeRecord(view);
      const event = decoded as RemapValue;
      const host = this.hostPath && fieldAt(event, this.hostPath);
      let time: number | undefined;
      if (extract && this.timestampPath !== undefined) {
        const timestamp = fieldAt(event, this.timestampPath, true);
        if (timestamp instanceof Timestamp) time = Number(timestamp.nanos / 1_000_000n) / 1000;
        else if (timestamp !== undefined) {
          this.env.log.warn('Timestamp was an unexpected type. Deferring to Splunk to set the timestamp.', {
            invalid_type: Array.isArray(timestamp) ? 'array' : typeof timestamp,
            internal_log_rate_key: 'splunk_timestamp_type',
          });
        }
      }
      const fields: Record<string, RemapValue> = {};
      for (const { name, path } of this.indexedFields) {
        const value = fieldAt(event, path);
        if (value !== undefined) fields[name] = value;
      }
      envelopes.push({ fields, time, host: host === undefined || host === null ? undefined : lossyString(host) });
      writer.append(kind, metadata as RemapValue, event);
    }
    const json = this.encoder.options.codec === 'json';
    return this.encoder.encodeEach(toBatch(writer.finish())).flatMap((payload, at) => {
      if (payload === undefined) return [];
      const text = Buffer.from(payload).toString('utf8');
      const { fields, time, host } = envelopes[at]!;
      // Built as text so that the event's JSON stays as the codec wrote it.
      let hec = `{"event":${json ? text : JSON.stringify(text)},"fields":${JSON.stringify(fields, jsonValue)}`;
      if (time !== undefined) hec += `,"time":${time}`;
      if (host !== undefined) hec += `,"host":${JSON.stringify(host)}`;
      for (const field of METADATA_FIELDS) {
        const value = rendered[field]?.[at];
        if (value !== undefined) hec += `,"${field}":${JSON.stringify(value)}`;
      }
      return [Buffer.from(`${hec}}`)];
    });
  }
}

/** JSON of remap values: integers as numbers, bytes as text. */
function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return value;
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildSplunkHecLogsSink(parsed: HecOptions, env: ComponentEnv, timer: RetryTimer): Promise<Sink> {
  const encoder = new SinkEncoder(
    encodeOptions(parsed.encoding, undefined, 'message', env.globals.log_schema.message_key),
    env,
  );
  const client = await httpClient(parsed.tls, env);
  return new SplunkHecLogsSink(parsed, encoder, env, client, timer, await hecTemplates(parsed, env));
}

const splunkHecLogs = {
  ...httpLogSink(
    'splunk_hec_logs',
    "Deliver log data to Splunk's HTTP Event Collector.",
    options,
    buildSplunkHecLogsSink,
  ),
  // Its `acknowledgements` has the indexer acknowledgement options beside `enabled`.
  ownCommon: ['acknowledgements'],
};

export default splunkHecLogs;
