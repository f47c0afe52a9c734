// OTLP, the OpenTelemetry protocol, as Vector's `opentelemetry` source and `otlp` codec speak it: the export
// requests of the three signals (support/otlp/, loaded with protobufjs), read from protobuf or OTLP/JSON, and
// turned into events two ways. By default as Vector's own events (lib/opentelemetry-proto): logs in Vector's
// log shape in either log namespace, metrics in Vector's metric model, spans as Vector's trace events. With
// `use_otlp_decoding`, as the request itself, its fields under their JSON names (`resourceLogs`, …), which the
// `otlp` codec encodes back unchanged. The codec encodes a metric event as one request of its own.

import { fileURLToPath } from 'node:url';
import type * as Protobuf from 'protobufjs';
import { protobufjs } from './protobufjs.js';
import { IntegralFloat } from '../../../abi/codec.js';
import type { InputEvent } from '../../../abi/batch.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import { OTLP_PROTO_DIR } from '../../package-files.js';
import type { ComponentEnv } from '../component.js';
import { type Stamp, type StampOrigin, stampAt, stampSource } from './decoding.js';
import type { Metric, MetricTags } from './metric.js';

export const SIGNALS = ['logs', 'metrics', 'traces'] as const;
export type Signal = (typeof SIGNALS)[number];

/** Per signal: its collector service (gRPC) and the name of its messages. */
const SIGNAL_PROTOCOL = {
  logs: { service: 'opentelemetry.proto.collector.logs.v1.LogsService', message: 'Logs' },
  metrics: { service: 'opentelemetry.proto.collector.metrics.v1.MetricsService', message: 'Metrics' },
  traces: { service: 'opentelemetry.proto.collector.trace.v1.TraceService', message: 'Trace' },
} as const;

const PROTO_FILES = [
  'opentelemetry/proto/collector/logs/v1/logs_service.proto',
  'opentelemetry/proto/collector/metrics/v1/metrics_service.proto',
  'opentelemetry/proto/collector/trace/v1/trace_service.proto',
];

/** A protobufjs message as decoded: fields by camelCase name, 64-bit integers as Long, bytes as Uint8Array. */
type Message = Protobuf.Message & Record<string, unknown>;

/** The export request and response of each signal, and google.rpc.Status (errors' answers). */
export interface OtlpProtocol {
  request: Record<Signal, Protobuf.Type>;
  response: Record<Signal, Protobuf.Type>;
  service: Record<Signal, Protobuf.Service>;
  status: Protobuf.Type;
}

let loaded: OtlpProtocol | undefined;

/** The OTLP messages, loaded once (protobufjs is imported only by pipelines that speak OTLP). */
export function otlpProtocol(): OtlpProtocol {
  if (loaded !== undefined) return loaded;
  const protobuf = protobufjs();
  const root = new protobuf.Root();
  const dir = fileURLToPath(OTLP_PROTO_DIR);
  root.resolvePath = (_origin, target) => `${dir}/${target}`;
  root.loadSync(PROTO_FILES);
  // google.rpc.Status without its `details` (Any), which errors never carry here.
  const status = new protobuf.Type('Status')
    .add(new protobuf.Field('code', 1, 'int32'))
    .add(new protobuf.Field('message', 2, 'string'));
  new protobuf.Root().define('google.rpc').add(status);
  const per = <T>(make: (signal: Signal, service: string, message: string) => T) =>
    Object.fromEntries(
      SIGNALS.map((signal) => {
        const { service, message } = SIGNAL_PROTOCOL[signal];
        return [signal, make(signal, service, message)];
      }),
    ) as Record<Signal, T>;
  const packageOf = (service: string) => service.slice(0, service.lastIndexOf('.'));
  loaded = {
    request: per((_, service, message) => root.lookupType(`${packageOf(service)}.Export${message}ServiceRequest`)),
    response: per((_, service, message) => root.lookupType(`${packageOf(service)}.Export${message}ServiceResponse`)),
    service: per((_, service) => root.lookupService(service)),
    status,
  };
  return loaded;
}

// ---- reading requests ----------------------------------------------------------------------------------

/** Fields OTLP/JSON writes as hex rather than base64 (the spec's exception for trace and span ids). */
const HEX_ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** OTLP/JSON as protobufjs reads it: field names in lowerCamelCase (the original snake_case names are
 * accepted too) and the hex trace and span ids as bytes; protobufjs reads the rest (base64 bytes, int64 as
 * strings or numbers, enums as numbers or names) and ignores unknown fields. */
function fromOtlpJson(value: unknown, key?: string): unknown {
  if (typeof value === 'string' && key !== undefined && HEX_ID_FIELDS.has(key)) {
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(value)) throw new Error(`${key} is not hex: "${value}"`);
    return Buffer.from(value, 'hex');
  }
  if (Array.isArray(value)) return value.map((item) => fromOtlpJson(item));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [field, item] of Object.entries(value)) {
      const name = field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      out[name] = fromOtlpJson(item, name);
    }
    return out;
  }
  return value;
}

/** A request body, protobuf or OTLP/JSON, as the signal's export request; throws when it is neither. */
export function decodeRequest(signal: Signal, body: Uint8Array, json: boolean): Message {
  const type = otlpProtocol().request[signal];
  if (!json) return type.decode(body) as Message;
  const parsed = JSON.parse(Buffer.from(body).toString('utf8')) as unknown;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('expected a JSON object');
  return type.fromObject(fromOtlpJson(parsed) as Record<string, unknown>) as Message;
}

/** The response a protobuf or JSON request gets: the signal's empty export response (full success). */
export function encodeResponse(signal: Signal, json: boolean): Uint8Array {
  return json ? Buffer.from('{}') : otlpProtocol().response[signal].encode({}).finish();
}

/** google.rpc.Status with `message`, code 2 (UNKNOWN) as Vector's answers carry. */
export function encodeStatus(message: string, json: boolean): Uint8Array {
  return json
    ? Buffer.from(JSON.stringify({ code: 2, message }))
    : otlpProtocol().status.encode({ code: 2, message }).finish();
}

const INT64_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const INT32_TYPES = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);

/** A protobufjs integer (Long or number) as a remap integer; 64-bit unsigned values wrap as Vector's do. */
function integer(value: unknown): bigint {
  if (typeof value === 'number') return BigInt(value);
  const long = value as { toString(): string; unsigned?: boolean };
  return BigInt.asIntN(64, BigInt(long.toString()));
}

/** Whether a message holds a value in `field` (VRL's `has_field`: proto3 defaults, empty lists and unset
 * messages do not); decoded and built messages own only the fields they were given. */
function present(message: Message, field: Protobuf.Field): boolean {
  if (!Object.hasOwn(message, field.name)) return false;
  const value = message[field.name];
  if (value === undefined || value === null) return false;
  if (field.repeated || field.map) return (Array.isArray(value) ? value.length : Object.keys(value).length) > 0;
  if (field.partOf !== null) return true;
  // An enum's default is 0; a message is set when present.
  if (field.resolvedType !== null) return 'values' in field.resolvedType ? value !== 0 : true;
  switch (typeof value) {
    case 'string':
      return value !== '';
    case 'boolean':
      return value;
    case 'number':
      return value !== 0;
    default:
      if (value instanceof Uint8Array) return value.length > 0;
      return integer(value) !== 0n;
  }
}

function scalarToRemap(field: Protobuf.Field, value: unknown): RemapValue {
  if (field.resolvedType !== null) {
    if ('values' in field.resolvedType) return BigInt(value as number);
    return messageToRemap(value as Message, field.resolvedType as Protobuf.Type);
  }
  if (INT64_TYPES.has(field.type) || INT32_TYPES.has(field.type)) return integer(value);
  if (field.type === 'double' || field.type === 'float') {
    const number = value as number;
    return Number.isNaN(number) ? null : (new IntegralFloat(number) as unknown as RemapValue);
  }
  if (field.type === 'bytes') return new Uint8Array(value as Uint8Array);
  return value as RemapValue;
}

/** A message as VRL's protobuf decoding gives it (JSON names; set fields only; enums as integers). */
export function messageToRemap(message: Message, type: Protobuf.Type): { [key: string]: RemapValue } {
  const object: { [key: string]: RemapValue } = {};
  for (const field of type.fieldsArray) {
    if (!present(message, field)) continue;
    const value = message[field.name];
    object[field.name] = field.repeated
      ? (value as unknown[]).map((item) => scalarToRemap(field, item))
      : scalarToRemap(field, value);
  }
  return object;
}

// ---- native events -------------------------------------------------------------------------------------

interface KeyValue {
  key: string;
  value?: Message | null;
}

/** An AnyValue as a remap value (Vector's `From<PBValue> for Value`); an unset one is null. */
function anyValue(value: Message | null | undefined): RemapValue {
  const set = value?.value as string | undefined;
  if (value === null || value === undefined || set === undefined) return null;
  const item = value[set];
  switch (set) {
    case 'stringValue':
    case 'boolValue':
      return item as string | boolean;
    case 'intValue':
      return integer(item);
    case 'doubleValue':
      return Number.isNaN(item) ? null : (new IntegralFloat(item as number) as unknown as RemapValue);
    case 'bytesValue':
      return new Uint8Array(item as Uint8Array);
    case 'arrayValue':
      return ((item as { values?: Message[] }).values ?? []).map(anyValue);
    case 'kvlistValue':
      return keyValues((item as { values?: KeyValue[] }).values);
    default:
      return null;
  }
}

/** A KeyValue list as an object; pairs without a value are left out (Vector's `kv_list_into_value`). */
function keyValues(list: KeyValue[] | undefined): { [key: string]: RemapValue } {
  const object: { [key: string]: RemapValue } = {};
  for (const { key, value } of list ?? []) if (value !== null && value !== undefined) object[key] = anyValue(value);
  return object;
}

const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex');
const nanos = (value: unknown) => (value === undefined || value === null ? 0n : integer(value));
const timestamp = (value: unknown) => new Timestamp(nanos(value));
const list = <T>(value: unknown) => (value ?? []) as T[];

const SOURCE_TYPE = 'opentelemetry';

/** Where each field of an OTLP log goes: `%opentelemetry.<path>` or, legacy, the event's `<path>`. */
function stampLogField(stamp: Stamp, origin: StampOrigin, path: string[], value: unknown): void {
  stampSource(stamp, origin, path.join('.'), path, value);
}

/** A logs request's records as Vector's log events (lib/opentelemetry-proto logs.rs). */
export function logEvents(request: Message, origin: StampOrigin, env: ComponentEnv): InputEvent[] {
  const now = new Date();
  const schema = env.globals.log_schema;
  const events: InputEvent[] = [];
  for (const resourceLogs of list<Message>(request.resourceLogs)) {
    const resource = resourceLogs.resource as Message | null | undefined;
    for (const scopeLogs of list<Message>(resourceLogs.scopeLogs)) {
      const scope = scopeLogs.scope as Message | null | undefined;
      for (const record of list<Message>(scopeLogs.logRecords)) {
        const body = anyValue(record.body as Message | null);
        const stamp: Stamp = {};
        const field = (path: string[], value: unknown) => stampLogField(stamp, origin, path, value);
        if (scope) {
          if (scope.name) field(['scope', 'name'], scope.name);
          if (scope.version) field(['scope', 'version'], scope.version);
          if (list(scope.attributes).length > 0)
            field(['scope', 'attributes'], keyValues(scope.attributes as KeyValue[]));
          if ((scope.droppedAttributesCount as number) > 0)
            field(['scope', 'dropped_attributes_count'], BigInt(scope.droppedAttributesCount as number));
        }
        if (resource && list(resource.attributes).length > 0)
          field(['resources'], keyValues(resource.attributes as KeyValue[]));
        if (list(record.attributes).length > 0) field(['attributes'], keyValues(record.attributes as KeyValue[]));
        const traceId = record.traceId as Uint8Array | undefined;
        if (traceId?.length) field(['trace_id'], hex(traceId));
        const spanId = record.spanId as Uint8Array | undefined;
        if (spanId?.length) field(['span_id'], hex(spanId));
        if (record.severityText) field(['severity_text'], record.severityText);
        if (record.severityNumber) field(['severity_number'], BigInt(record.severityNumber as number));
        if ((record.flags as number) > 0) field(['flags'], BigInt(record.flags as number));
        field(['dropped_attributes_count'], BigInt((record.droppedAttributesCount as number | undefined) ?? 0));
        const observedNanos = nanos(record.observedTimeUnixNano);
        const observed = observedNanos > 0n ? new Timestamp(observedNanos) : now;
        field(['observed_timestamp'], observed);
        const timeNanos = nanos(record.timeUnixNano);
        const time = timeNanos > 0n ? new Timestamp(timeNanos) : observed;
        if (origin.logNamespace === 'vector') {
          stampSource(stamp, origin, undefined, ['timestamp'], time);
          stamp.vector = { source_type: SOURCE_TYPE, ingest_timestamp: now };
          events.push({ kind: 'log', metadata: stamp, event: body });
        } else {
          stampAt(stamp, schema.timestamp_key, time);
          stampAt(stamp, schema.source_type_key, SOURCE_TYPE);
          // The body goes at the message key unless absent (Vector's `maybe_insert`).
          if (record.body !== null && record.body !== undefined && (record.body as Message).value !== undefined)
            stampAt(stamp, schema.message_key, body);
          events.push({ kind: 'log', event: stamp });
        }
      }
    }
  }
  return events;
}

/** A trace request's spans as Vector's trace events (lib/opentelemetry-proto spans.rs). */
export function traceEvents(request: Message): InputEvent[] {
  const now = new Date();
  const events: InputEvent[] = [];
  for (const resourceSpans of list<Message>(request.resourceSpans)) {
    const resource = resourceSpans.resource as Message | null | undefined;
    for (const scopeSpans of list<Message>(resourceSpans.scopeSpans)) {
      for (const span of list<Message>(scopeSpans.spans)) {
        const trace: { [key: string]: unknown } = {
          trace_id: hex(span.traceId as Uint8Array),
          span_id: hex(span.spanId as Uint8Array),
          trace_state: span.traceState ?? '',
          parent_span_id: hex(span.parentSpanId as Uint8Array),
          name: span.name ?? '',
          kind: BigInt((span.kind as number | undefined) ?? 0),
          start_time_unix_nano: timestamp(span.startTimeUnixNano),
          end_time_unix_nano: timestamp(span.endTimeUnixNano),
        };
        if (list(span.attributes).length > 0) trace.attributes = keyValues(span.attributes as KeyValue[]);
        trace.dropped_attributes_count = BigInt((span.droppedAttributesCount as number | undefined) ?? 0);
        const spanEvents = list<Message>(span.events);
        if (spanEvents.length > 0) {
          trace.events = spanEvents.map((event) => ({
            name: event.name ?? '',
            time_unix_nano: timestamp(event.timeUnixNano),
            attributes: keyValues(event.attributes as KeyValue[]),
            dropped_attributes_count: BigInt((event.droppedAttributesCount as number | undefined) ?? 0),
          }));
        }
        trace.dropped_events_count = BigInt((span.droppedEventsCount as number | undefined) ?? 0);
        const links = list<Message>(span.links);
        if (links.length > 0) {
          trace.links = links.map((link) => ({
            trace_id: hex(link.traceId as Uint8Array),
            span_id: hex(link.spanId as Uint8Array),
            trace_state: link.traceState ?? '',
            attributes: keyValues(link.attributes as KeyValue[]),
            dropped_attributes_count: BigInt((link.droppedAttributesCount as number | undefined) ?? 0),
          }));
        }
        trace.dropped_links_count = BigInt((span.droppedLinksCount as number | undefined) ?? 0);
        const status = span.status as Message | null | undefined;
        trace.status = status
          ? { message: status.message ?? '', code: BigInt((status.code as number | undefined) ?? 0) }
          : null;
        if (resource && list(resource.attributes).length > 0)
          trace.resources = keyValues(resource.attributes as KeyValue[]);
        trace.ingest_timestamp = now;
        events.push({ kind: 'trace', event: trace });
      }
    }
  }
  return events;
}

/** Rust's `f64::to_string` for the values tags get (integral values without `.0`, `inf`, `NaN`). */
function rustFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return String(value);
}

/** An attribute's value as a tag (Vector's `From<PBValue> for TagValue`). */
function tagText(value: Message): string {
  const set = value.value as string;
  const item = value[set];
  switch (set) {
    case 'stringValue':
      return item as string;
    case 'boolValue':
      return String(item);
    case 'intValue':
      return integer(item).toString();
    case 'doubleValue':
      return rustFloat(item as number);
    case 'bytesValue':
      return Buffer.from(item as Uint8Array).toString('utf8');
    default:
      return 'null';
  }
}

/** A data point's tags: the resource's attributes (`resource.` prefixed), the scope's name, version and
 * attributes (`scope.` prefixed), then the point's own (Vector's `build_metric_tags`). */
function metricTags(resource: Message | null | undefined, scope: Message | null | undefined, point: Message) {
  const tags: MetricTags = {};
  const add = (prefix: string, attributes: unknown) => {
    for (const { key, value } of list<KeyValue>(attributes))
      if (value !== null && value !== undefined && value.value !== undefined) tags[prefix + key] = tagText(value);
  };
  if (resource) add('resource.', resource.attributes);
  if (scope) {
    if (scope.name) tags['scope.name'] = scope.name as string;
    if (scope.version) tags['scope.version'] = scope.version as string;
    add('scope.', scope.attributes);
  }
  add('', point.attributes);
  return tags;
}

/** OTLP's AggregationTemporality DELTA: incremental; CUMULATIVE (or unspecified) absolute. */
const kindOf = (temporality: unknown) => (temporality === 1 ? 'incremental' : 'absolute');

/** Whether a message has the field set (decoded and built messages own only their set fields). */
const has = (message: Message, field: string) => Object.hasOwn(message, field);

/** A number data point's value, as_double or as_int (0 when neither is set). */
const pointValue = (point: Message) =>
  has(point, 'asDouble') ? (point.asDouble as number) : has(point, 'asInt') ? Number(nanos(point.asInt)) : 0;

/** An optional double (a histogram's sum): 0 when unset, as Vector reads it. */
const optionalSum = (point: Message) => (has(point, 'sum') ? (point.sum as number) : 0);

/** A metrics request's data points as metrics (Vector's `ResourceMetrics::into_event_iter`). */
export function metrics(request: Message): Metric[] {
  const out: Metric[] = [];
  for (const resourceMetrics of list<Message>(request.resourceMetrics)) {
    const resource = resourceMetrics.resource as Message | null | undefined;
    for (const scopeMetrics of list<Message>(resourceMetrics.scopeMetrics)) {
      const scope = scopeMetrics.scope as Message | null | undefined;
      for (const metric of list<Message>(scopeMetrics.metrics)) {
        const name = (metric.name as string | undefined) ?? '';
        const data = metric.data as string | undefined;
        if (data === undefined) continue;
        const body = metric[data] as Message;
        for (const point of list<Message>(body.dataPoints)) {
          const base = { name, tags: metricTags(resource, scope, point), timestamp: nanos(point.timeUnixNano) };
          const converted = dataPoint(data, body, point);
          if (converted !== undefined) out.push({ ...base, ...converted });
        }
      }
    }
  }
  return out;
}

function dataPoint(data: string, body: Message, point: Message): Pick<Metric, 'kind' | 'value'> | undefined {
  switch (data) {
    case 'gauge':
      return { kind: 'absolute', value: { type: 'gauge', value: pointValue(point) } };
    case 'sum':
      return {
        kind: kindOf(body.aggregationTemporality),
        value: { type: body.isMonotonic ? 'counter' : 'gauge', value: pointValue(point) },
      };
    case 'histogram': {
      const bounds = list<number>(point.explicitBounds);
      return {
        kind: kindOf(body.aggregationTemporality),
        value: {
          type: 'aggregated_histogram',
          buckets: list<unknown>(point.bucketCounts).map((count, index) => ({
            upper_limit: bounds[index] ?? Infinity,
            count: Number(integer(count)),
          })),
          count: Number(nanos(point.count)),
          sum: optionalSum(point),
        },
      };
    }
    case 'exponentialHistogram':
      return { kind: kindOf(body.aggregationTemporality), value: exponentialBuckets(point) };
    case 'summary':
      return {
        kind: 'absolute',
        value: {
          type: 'aggregated_summary',
          quantiles: list<Message>(point.quantileValues).map((q) => ({
            quantile: (q.quantile as number | undefined) ?? 0,
            value: (q.value as number | undefined) ?? 0,
          })),
          count: Number(nanos(point.count)),
          sum: (point.sum as number | undefined) ?? 0,
        },
      };
    default:
      return undefined;
  }
}

/** An exponential histogram as buckets: negative ones (upper limit -base^index), the zero bucket, then the
 * positive ones (base^(index+1)), base = 2^(2^-scale), as Vector converts them. */
function exponentialBuckets(point: Message): Metric['value'] {
  const scale = (point.scale as number | undefined) ?? 0;
  const base = 2 ** (2 ** -scale);
  const buckets: Array<{ upper_limit: number; count: number }> = [];
  const side = (value: unknown, limit: (index: number) => number) => {
    const buckets_ = value as Message | null | undefined;
    if (!buckets_) return;
    const offset = (buckets_.offset as number | undefined) ?? 0;
    list<unknown>(buckets_.bucketCounts).forEach((count, i) =>
      buckets.push({ upper_limit: limit(offset + i), count: Number(integer(count)) }),
    );
  };
  side(point.negative, (index) => -(base ** index));
  const zero = Number(nanos(point.zeroCount));
  if (zero > 0) buckets.push({ upper_limit: 0, count: zero });
  side(point.positive, (index) => base ** (index + 1));
  return {
    type: 'aggregated_histogram',
    buckets,
    count: Number(nanos(point.count)),
    sum: optionalSum(point),
  };
}

// ---- encoding (the `otlp` codec) -----------------------------------------------------------------------

/** A remap value read back as protobufjs' `fromObject` takes it for `field` (VRL's protobuf encoding with
 * lossy string coercion: any value where a string is wanted becomes its text). */
function fieldFromRemap(field: Protobuf.Field, value: RemapValue): unknown {
  if (field.resolvedType !== null) {
    if ('values' in field.resolvedType) return typeof value === 'bigint' ? Number(value) : value;
    return messageFromRemap(field.resolvedType as Protobuf.Type, value);
  }
  if (INT64_TYPES.has(field.type)) return typeof value === 'bigint' ? value.toString() : value;
  if (INT32_TYPES.has(field.type) || field.type === 'double' || field.type === 'float')
    return typeof value === 'bigint' ? Number(value) : value;
  if (field.type === 'bytes') return typeof value === 'string' ? Buffer.from(value) : value;
  if (field.type === 'string') {
    if (typeof value === 'string') return value;
    return value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : String(value);
  }
  return value;
}

function messageFromRemap(type: Protobuf.Type, value: RemapValue): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array)
    throw new Error(`${type.name} must be an object`);
  const object: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value as { [key: string]: RemapValue })) {
    const field = type.fields[name] ?? type.fields[name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
    if (field === undefined || item === null) continue;
    object[field.name] = field.repeated
      ? (Array.isArray(item) ? item : [item]).map((element) => fieldFromRemap(field, element))
      : fieldFromRemap(field, item);
  }
  return object;
}

/** An event holding a request as `otlp`-decoded (its top-level field under its JSON name), encoded. */
function encodeDecoded(signal: Signal, event: RemapValue): Uint8Array {
  const type = otlpProtocol().request[signal];
  return type.encode(type.fromObject(messageFromRemap(type, event))).finish();
}

/** Tags back into resource attributes, scope and point attributes (Vector's `split_metric_tags`). */
function splitTags(tags: MetricTags) {
  const resource: Array<{ key: string; value: unknown }> = [];
  const scope = { name: '', version: '', attributes: [] as Array<{ key: string; value: unknown }> };
  const attributes: Array<{ key: string; value: unknown }> = [];
  for (const [key, tag] of Object.entries(tags)) {
    const values = Array.isArray(tag) ? tag : [tag];
    if (key === 'scope.name' || key === 'scope.version') {
      scope[key === 'scope.name' ? 'name' : 'version'] = values.length === 1 ? (values[0] ?? '') : '';
      continue;
    }
    if (values.length === 0) continue;
    const single = (item: string | null) => (item === null ? {} : { stringValue: item });
    const value = values.length === 1 ? single(values[0]!) : { arrayValue: { values: values.map(single) } };
    const [target, name] = key.startsWith('resource.')
      ? [resource, key.slice('resource.'.length)]
      : key.startsWith('scope.')
        ? [scope.attributes, key.slice('scope.'.length)]
        : [attributes, key];
    if (name.trim() !== '') target.push({ key: name, value });
  }
  return { resource, scope, attributes };
}

/** Values that must be strictly increasing once sorted (histogram bounds, summary quantiles). */
function rejectDuplicates(values: number[], description: string): void {
  values.forEach((value, i) => {
    if (i > 0 && values[i - 1] === value)
      throw new Error(`${description} must be strictly increasing, but found duplicate value ${value}`);
  });
}

/** Vector's check of a histogram's or summary's sum: undefined when negative (OTLP omits it then). */
function checkedSum(count: number, sum: number, description: string): number | undefined {
  if (Number.isNaN(sum)) throw new Error(`${description} sum must not be NaN`);
  if (count === 0 && sum !== 0) throw new Error(`${description} sum (${sum}) must be zero when count is zero`);
  return sum >= 0 ? sum : undefined;
}

/** A metric's OTLP data (Vector's `metric_value_to_data`), or an error naming what OTLP cannot carry. */
function metricData(metric: Metric, time: bigint, start: bigint, attributes: unknown[]): Record<string, unknown> {
  const temporality = metric.kind === 'incremental' ? 1 : 2;
  const point = (value: number, startTime = start) => ({
    attributes,
    startTimeUnixNano: startTime.toString(),
    timeUnixNano: time.toString(),
    asDouble: value,
  });
  const value = metric.value;
  switch (value.type) {
    case 'counter':
      if (Number.isNaN(value.value)) throw new Error('counter value must not be NaN');
      if (metric.kind === 'absolute' && value.value < 0) throw new Error('absolute counter value cannot be negative');
      return {
        sum: {
          dataPoints: [point(value.value)],
          aggregationTemporality: temporality,
          isMonotonic: metric.kind === 'absolute' || value.value >= 0,
        },
      };
    case 'gauge':
      if (Number.isNaN(value.value)) throw new Error('gauge value must not be NaN');
      return metric.kind === 'absolute'
        ? { gauge: { dataPoints: [point(value.value, 0n)] } }
        : { sum: { dataPoints: [point(value.value)], aggregationTemporality: temporality, isMonotonic: false } };
    case 'aggregated_histogram': {
      const nan = value.buckets.find((bucket) => Number.isNaN(bucket.upper_limit));
      if (nan !== undefined) throw new Error(`histogram bucket upper_limit must not be NaN, got ${nan.upper_limit}`);
      const buckets = [...value.buckets].sort((a, b) => a.upper_limit - b.upper_limit);
      rejectDuplicates(
        buckets.map((bucket) => bucket.upper_limit),
        'histogram bucket upper_limit',
      );
      let sum = checkedSum(value.count, value.sum, 'histogram');
      if (buckets.some((bucket) => bucket.upper_limit < 0 && bucket.count > 0)) sum = undefined;
      const bucketCounts = buckets.map((bucket) => bucket.count);
      const infinite = buckets.at(-1)?.upper_limit === Infinity;
      const explicitBounds = (infinite ? buckets.slice(0, -1) : buckets).map((bucket) => bucket.upper_limit);
      if (!infinite) bucketCounts.push(Math.max(0, value.count - bucketCounts.reduce((a, b) => a + b, 0)));
      const total = bucketCounts.reduce((a, b) => a + b, 0);
      if (total !== value.count)
        throw new Error(`histogram bucket_counts sum (${total}) does not equal count (${value.count})`);
      return {
        histogram: {
          dataPoints: [
            {
              attributes,
              startTimeUnixNano: start.toString(),
              timeUnixNano: time.toString(),
              count: value.count,
              ...(sum === undefined ? {} : { sum }),
              bucketCounts,
              explicitBounds,
            },
          ],
          aggregationTemporality: temporality,
        },
      };
    }
    case 'aggregated_summary': {
      if (metric.kind === 'incremental')
        throw new Error('OTLP serializer does not support Delta summary metric values');
      const outside = value.quantiles.find((q) => !(q.quantile >= 0 && q.quantile <= 1));
      if (outside !== undefined)
        throw new Error(`summary quantile ${outside.quantile} is outside the valid range [0.0, 1.0]`);
      const negative = value.quantiles.find((q) => Number.isNaN(q.value) || q.value < 0);
      if (negative !== undefined)
        throw new Error(`summary quantile value ${negative.value} must not be negative or NaN`);
      const quantiles = [...value.quantiles].sort((a, b) => a.quantile - b.quantile);
      rejectDuplicates(
        quantiles.map((q) => q.quantile),
        'summary quantile',
      );
      const sum = checkedSum(value.count, value.sum, 'summary');
      if (sum === undefined)
        throw new Error('summary sum must not be negative; the OTLP summary sum field cannot be omitted');
      return {
        summary: {
          dataPoints: [
            {
              attributes,
              timeUnixNano: time.toString(),
              count: value.count,
              sum,
              quantileValues: quantiles.map((q) => ({ quantile: q.quantile, value: q.value })),
            },
          ],
        },
      };
    }
    case 'set':
      throw new Error('OTLP serializer does not support Set (statsd-style) metric values');
    case 'distribution':
      throw new Error('OTLP serializer does not support Distribution (un-aggregated) metric values');
    case 'sketch':
      throw new Error('OTLP serializer does not support Sketch (DDSketch) metric values');
  }
}

/** A metric as an export request of its own (Vector's `metric_event_to_export_request`): an incremental
 * metric with an interval gets [timestamp, timestamp + interval] as its start and time, as in Vector. */
function metricRequest(metric: Metric): Record<string, unknown> {
  let start = 0n;
  let time = 0n;
  if (metric.timestamp !== undefined) {
    if (metric.timestamp < 0n)
      throw new Error(
        `metric timestamp ${metric.timestamp} is before the Unix epoch and cannot be encoded as an OTLP nanosecond timestamp`,
      );
    time = metric.timestamp;
    if (metric.kind === 'incremental' && metric.interval_ms !== undefined) {
      start = time;
      time += BigInt(metric.interval_ms) * 1_000_000n;
    }
  }
  const { resource, scope, attributes } = splitTags(metric.tags ?? {});
  const name = metric.namespace === undefined ? metric.name : `${metric.namespace}.${metric.name}`;
  return {
    resourceMetrics: [
      {
        resource: { attributes: resource },
        scopeMetrics: [{ scope, metrics: [{ name, ...metricData(metric, time, start, attributes) }] }],
      },
    ],
  };
}

/** One event as the `otlp` codec encodes it: a metric as its own metrics request, a log or trace holding an
 * `otlp`-decoded request as that request. Concatenated, such encodings are one request of their signal. */
export function encodeOtlpEvent(kind: 'log' | 'metric' | 'trace', event: RemapValue, metric?: Metric): Uint8Array {
  if (metric !== undefined) {
    const type = otlpProtocol().request.metrics;
    return type.encode(type.fromObject(metricRequest(metric))).finish();
  }
  const object = (event ?? {}) as { [key: string]: RemapValue };
  if (kind === 'trace') {
    if (object.resourceSpans === undefined)
      throw new Error('Trace event does not contain OTLP top-level field (resourceSpans)');
    return encodeDecoded('traces', event);
  }
  if (object.resourceLogs !== undefined) return encodeDecoded('logs', event);
  if (object.resourceMetrics !== undefined) return encodeDecoded('metrics', event);
  throw new Error('Log event does not contain OTLP top-level fields (resourceLogs or resourceMetrics)');
}
