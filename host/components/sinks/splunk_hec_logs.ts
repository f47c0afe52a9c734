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
import { BatchReader } from '../../../runtime/engine.js';
import type { RemapValue } from '../../../runtime/index.js';
import { ByteWriter, timestampNanosAt, timestampSecondsAt, Wire } from '../../../abi/codec.js';
import type { ComponentEnv, Sink } from '../component.js';
import type { EventBatch } from '../../topology/batch.js';
import { encodeOptions, encodingSchema, exceptField, SinkEncoder } from '../support/encoding.js';
import { eventFieldPath, lossyString } from '../support/event-fields.js';
import { groupByKey } from '../support/event-template.js';
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
    const keys: string[] = [];
    for (const cursor = reader.cursor(); cursor.next(); ) {
      const host = raw && this.hostPath ? reader.readPath(cursor.bytes, this.hostPath, cursor.eventAt) : undefined;
      const token = this.passthroughToken(reader, cursor);
      let none = typeof host !== 'string' && token === null;
      for (const field of METADATA_FIELDS) none &&= rendered[field]?.[cursor.index] === undefined;
      if (none) {
        keys.push(NO_PARTITION);
        continue;
      }
      const values = METADATA_FIELDS.map((field) => rendered[field]?.[cursor.index] ?? null);
      keys.push(JSON.stringify([...values, typeof host === 'string' ? host : null, token]));
    }
    return groupByKey(batch, keys);
  }

  protected async buildRequest(key: string, parts: EventBatch[]): Promise<HttpRequest | undefined> {
    const raw = this.options.endpoint_target === 'raw';
    const written = raw ? undefined : parts.map((part) => this.eventPayloads(part));
    const payloads = written?.map(({ bytes }) => bytes) ?? parts.flatMap((part) => this.rawPayloads(part));
    const events = written?.reduce((total, { count }) => total + count, 0) ?? payloads.length;
    if (events === 0) return undefined;
    let query = '';
    const [index, source, sourcetype, host, token] = JSON.parse(key) as Array<string | null>;
    if (raw) {
      const pairs = Object.entries({ source, sourcetype, index, host }).filter(([, value]) => value !== null);
      query = pairs.map(([name, value]) => `${name}=${percentEncode(value!)}`).join('&');
    } else if (this.options.auto_extract_timestamp) {
      query = 'auto_extract_timestamp=true';
    }
    const path = raw ? '/services/collector/raw' : '/services/collector/event';
    return this.hecRequest(path, query, token, payloads, events);
  }

  /** Raw endpoint: the events encoded, without framing. */
  private rawPayloads(part: EventBatch): Uint8Array[] {
    return this.encoder.encodeEach(part).filter((payload) => payload !== undefined);
  }

  /**
   * Event endpoint: one HEC event object per event, written one after another. The events stay encoded:
   * fields are read in place, and the encoder leaves the timestamp out (see `buildSplunkHecLogsSink`).
   * Returns them and how many there are (the events the encoder could encode).
   */
  private eventPayloads(part: EventBatch): { bytes: Uint8Array; count: number } {
    const rendered = this.renderMetadata(part);
    const reader = new BatchReader(part.bytes);
    /** Per event, what follows the event in its object. */
    const tails: string[] = [];
    const extract = !this.options.auto_extract_timestamp;
    for (const cursor = reader.cursor(); cursor.next(); ) {
      const { bytes, eventAt } = cursor;
      const host = this.hostPath && reader.readPath(bytes, this.hostPath, eventAt);
      let time: number | undefined;
      if (extract && this.timestampPath !== undefined) {
        const at = reader.findEncoded(bytes, this.timestampPath, eventAt);
        if (at >= 0 && bytes[at] === Wire.Timestamp) time = timestampSeconds(bytes, at);
        else if (at >= 0) {
          const timestamp = reader.readPath(bytes, this.timestampPath, eventAt);
          this.env.log.warn('Timestamp was an unexpected type. Deferring to Splunk to set the timestamp.', {
            invalid_type: Array.isArray(timestamp) ? 'array' : typeof timestamp,
            internal_log_rate_key: 'splunk_timestamp_type',
          });
        }
      }
      let tail = NO_FIELDS;
      if (this.indexedFields.length > 0) {
        const fields: Record<string, RemapValue> = {};
        for (const { name, path } of this.indexedFields) {
          // The timestamp is taken out of the event first.
          if (extract && this.timestampPath !== undefined && samePath(path, this.timestampPath)) continue;
          const value = reader.readPath(bytes, path, eventAt);
          if (value !== undefined) fields[name] = value;
        }
        tail = `,"fields":${JSON.stringify(fields, jsonValue)}`;
      }
      if (time !== undefined) tail += `,"time":${time}`;
      if (host !== undefined && host !== null) tail += `,"host":${JSON.stringify(lossyString(host))}`;
      for (const field of METADATA_FIELDS) {
        const value = rendered[field]?.[cursor.index];
        if (value !== undefined) tail += `,"${field}":${JSON.stringify(value)}`;
      }
      tails.push(tail);
    }
    const json = this.encoder.options.codec === 'json';
    const out = new ByteWriter();
    let count = 0;
    this.encoder.encodeEach(part).forEach((payload, at) => {
      if (payload === undefined) return;
      out.raw(EVENT_HEAD);
      // The event's JSON goes in as the codec wrote it.
      if (json) out.raw(payload);
      else
        out.utf8(JSON.stringify(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8')));
      out.utf8(tails[at]!);
      out.u8(0x7d);
      count++;
    });
    return { bytes: out.finish(), count };
  }
}

/**
 * `time` of the timestamp encoded at `at`: seconds with milliseconds, truncated toward zero as Vector divides
 * its nanoseconds.
 */
function timestampSeconds(bytes: Uint8Array, at: number): number {
  const seconds = timestampSecondsAt(bytes, at);
  const subsecond = timestampNanosAt(bytes, at);
  let millis = seconds * 1000 + Math.floor(subsecond / 1_000_000);
  if (seconds < 0 && subsecond % 1_000_000 !== 0) millis++;
  return millis / 1000;
}

const samePath = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name, i) => name === b[i]);

const EVENT_HEAD = Buffer.from('{"event":');
/** What an event without indexed fields has of them. */
const NO_FIELDS = ',"fields":{}';
/** The partition key of events with no metadata, host or token (most): JSON of five nulls. */
const NO_PARTITION = JSON.stringify([...METADATA_FIELDS.map(() => null), null, null]);

/** JSON of remap values: integers as numbers, bytes as text. */
function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return value;
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildSplunkHecLogsSink(parsed: HecOptions, env: ComponentEnv, timer: RetryTimer): Promise<Sink> {
  const encoding = encodeOptions(parsed.encoding, undefined, 'message', env.globals.log_schema.message_key);
  // The event endpoint takes the timestamp out of the event (into `time`).
  const extract = parsed.endpoint_target === 'event' && !parsed.auto_extract_timestamp;
  const timestampKey = parsed.timestamp_key ?? env.globals.log_schema.timestamp_key;
  const encoder = new SinkEncoder(extract ? exceptField(encoding, timestampKey) : encoding, env);
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
