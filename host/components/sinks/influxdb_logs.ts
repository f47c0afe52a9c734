// The `influxdb_logs` sink, as Vector's: log events written to InfluxDB (v1 `/write` or v2 `/api/v2/write`,
// support/influxdb.ts) in line protocol, one line per event in `measurement`. The event's timestamp
// (`log_schema.timestamp_key`, taken out) is the line's, else now; its fields, flattened to paths (`a.b`,
// `a[0]`), are the line's fields — integers `i`, floats, booleans, anything else as text — except those
// named in `tags`, the host and source type fields and `metric_type` (set to `logs`), which are its tags.
// `host_key`, `message_key` and `source_type_key` rename those fields; `encoding` drops or keeps fields
// (`except_fields`, `only_fields`) and writes timestamps as `timestamp_format` says. Requests, retries, concurrency and TLS are those of every HTTP sink.

import { z } from 'zod';
import { type RemapValue, Timestamp } from '../../../runtime/index.js';
import type { ComponentEnv, Sink } from '../component.js';
import { transformerSchema } from '../support/encoding.js';
import { eventFieldPath, isObject, lossyString, takeField } from '../support/event-fields.js';
import {
  batchSchema,
  type HttpClient,
  httpClient,
  httpLogSink,
  httpTlsSchema,
  requestSchema,
} from '../support/http-batch-sink.js';
import {
  checkInfluxDbSettings,
  type Field,
  InfluxDbBatchSink,
  influxDbFields,
  lineProtocol,
} from '../support/influxdb.js';
import type { RetryTimer } from '../support/retry.js';

const options = z
  .strictObject({
    ...influxDbFields,
    measurement: z.string(),
    tags: z.array(z.string()).default([]),
    host_key: z.string().optional(),
    message_key: z.string().optional(),
    source_type_key: z.string().optional(),
    encoding: transformerSchema,
    request: requestSchema,
    batch: batchSchema({ max_bytes: 1_000_000, timeout_secs: 1 }),
    tls: httpTlsSchema.optional(),
  })
  .check(checkInfluxDbSettings);

type InfluxDbLogsOptions = z.infer<typeof options>;

/** A field name as a path segment: quoted unless plain (Vector's path display). */
const segmentText = (key: string) =>
  /^[A-Za-z0-9_@]+$/.test(key) ? key : `"${key.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** `segmentText` of the names met, which events mostly share (started over past 10,000). */
const segments = new Map<string, string>();
function segment(key: string): string {
  let text = segments.get(key);
  if (text === undefined) {
    if (segments.size >= 10_000) segments.clear();
    segments.set(key, (text = segmentText(key)));
  }
  return text;
}

/** An event field path as `convert_to_fields` names it (`a.b`, no leading dot). */
const pathText = (text: string) => eventFieldPath(text)?.map(segment).join('.');

/**
 * Vector's `convert_to_fields`: every leaf of the event with its path (`a.b`, `a[0]`); a field taken out
 * (`takeField`: undefined) is not there.
 */
function flatten(value: RemapValue, path: string, into: Array<[string, RemapValue]>): void {
  if (isObject(value)) {
    let empty = true;
    for (const key in value) {
      const item = value[key];
      if (item === undefined) continue;
      empty = false;
      flatten(item, path === '' ? segment(key) : `${path}.${segment(key)}`, into);
    }
    if (empty && path !== '') into.push([path, value]);
  } else if (Array.isArray(value) && value.length > 0) value.forEach((item, i) => flatten(item, `${path}[${i}]`, into));
  else into.push([path, value]);
}

type TimestampFormat = InfluxDbLogsOptions['encoding']['timestamp_format'];

/** A timestamp as `encoding.timestamp_format` makes it (Vector's `Transformer`): RFC 3339 text by default. */
function timestampValue(timestamp: Timestamp, format: TimestampFormat): RemapValue {
  const { nanos } = timestamp;
  switch (format) {
    case 'unix':
      return nanos / 1_000_000_000n;
    case 'unix_ms':
      return nanos / 1_000_000n;
    case 'unix_us':
      return nanos / 1_000n;
    case 'unix_ns':
      return nanos;
    case 'unix_float':
      return Number(nanos) / 1e9;
    default:
      return timestamp;
  }
}

function toField(leaf: RemapValue, format: TimestampFormat): Field {
  const value = leaf instanceof Timestamp ? timestampValue(leaf, format) : leaf;
  if (typeof value === 'bigint') return { type: 'integer', value };
  if (typeof value === 'number') return { type: 'float', value };
  if (typeof value === 'boolean') return { type: 'boolean', value };
  return { type: 'string', value: lossyString(value) };
}

/** A move of the field at `from` to `to` (both event field paths), undefined when either is none. */
function renaming(from: string, to: string | undefined): { source: string[]; target: string[] } | undefined {
  const source = eventFieldPath(from);
  const target = to === undefined ? undefined : eventFieldPath(to);
  return source === undefined || target === undefined || from === to ? undefined : { source, target };
}

/** Moves the field at `source` to `target`. */
function rename(event: RemapValue, { source, target }: { source: string[]; target: string[] }): void {
  const value = takeField(event, source);
  if (value === undefined) return;
  let object = event as { [key: string]: RemapValue };
  for (const name of target.slice(0, -1)) {
    if (!isObject(object[name])) object[name] = {};
    object = object[name] as { [key: string]: RemapValue };
  }
  object[target.at(-1)!] = value;
}

class InfluxDbLogsSink extends InfluxDbBatchSink {
  private readonly tags: Set<string>;
  /** The message, host and source type fields moved to their keys, in that order. */
  private readonly renames: Array<{ source: string[]; target: string[] }>;
  private readonly timestampPath: string[] | undefined;
  private readonly exceptPaths: string[][];
  private readonly keptPaths: Array<string | undefined> | undefined;

  constructor(
    private readonly options: InfluxDbLogsOptions,
    env: ComponentEnv,
    client: HttpClient,
    timer: RetryTimer,
  ) {
    super(options, env, client, timer, true);
    const { host_key, source_type_key } = env.globals.log_schema;
    // As Vector: the host and source type fields are tags under their `log_schema` paths.
    const named = [pathText(host_key), pathText(source_type_key)].filter((path) => path !== undefined);
    this.tags = new Set([...options.tags, ...named, 'metric_type']);
    const schema = env.globals.log_schema;
    this.renames = [
      renaming(schema.message_key, options.message_key),
      renaming(schema.host_key, options.host_key),
      renaming(schema.source_type_key, options.source_type_key),
    ].filter((move) => move !== undefined);
    this.timestampPath = eventFieldPath(schema.timestamp_key);
    this.exceptPaths = (options.encoding.except_fields ?? []).flatMap((name) => {
      const path = eventFieldPath(name);
      return path ? [path] : [];
    });
    this.keptPaths = options.encoding.only_fields?.map(pathText);
  }

  protected line(decoded: RemapValue): string | undefined {
    const schema = this.env.globals.log_schema;
    const event = (isObject(decoded) ? decoded : { [schema.message_key]: decoded }) as { [key: string]: RemapValue };
    for (const move of this.renames) rename(event, move);
    event.metric_type = 'logs';
    const timestamp = this.timestampPath && takeField(event, this.timestampPath);
    for (const path of this.exceptPaths) takeField(event, path);
    const leaves: Array<[string, RemapValue]> = [];
    flatten(event, '', leaves);
    const kept = this.keptPaths;
    const tags: Record<string, string> = {};
    const fields: Array<[string, Field]> = [];
    for (const [path, value] of leaves) {
      if (
        kept &&
        !kept.some(
          (prefix) =>
            prefix !== undefined && (path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`)),
        )
      )
        continue;
      if (this.tags.has(path)) tags[path] = lossyString(value);
      else fields.push([path, toField(value, this.options.encoding.timestamp_format)]);
    }
    fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const nanos = timestamp instanceof Timestamp ? timestamp.nanos : BigInt(Date.now()) * 1_000_000n;
    return lineProtocol(this.version, this.options.measurement, tags, fields, nanos);
  }
}

/** The sink; `timer`: how it waits between retries (tests drive their own). */
export async function buildInfluxDbLogsSink(
  parsed: InfluxDbLogsOptions,
  env: ComponentEnv,
  timer: RetryTimer,
): Promise<Sink> {
  return new InfluxDbLogsSink(parsed, env, await httpClient(parsed.tls, env), timer);
}

export default httpLogSink('influxdb_logs', 'Deliver log event data to InfluxDB.', options, buildInfluxDbLogsSink);
