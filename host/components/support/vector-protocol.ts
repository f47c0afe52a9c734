// Vector's own protocol (version 2), shared by the `vector` source and sink: the gRPC service `vector.Vector`
// (PushEvents, HealthCheck) and the conversion between its EventWrapper protobufs (support/vector/*.proto,
// loaded with protobufjs) and svc's events, as Vector converts its events (lib/vector-core's event/proto.rs):
//
// - Values: raw_bytes ↔ bytes, timestamp, integer (int64, exact), float, boolean, map, array, null. A value of
//   no known kind is left out of its map or array, as Vector does; a NaN float refuses the event.
// - Logs: `value` when set, else the legacy `fields` map; an object is sent as `fields` and any other value as
//   `value` (beside a `fields` placeholder), as Vector writes them, so that older receivers read them.
// - Metrics: Vector's metric model (support/metric.ts); every value type of the protobuf, the older
//   distribution, histogram and summary shapes included, and AgentDDSketch; `tags_v2` with `tags_v1` last.
// - Traces: the `fields` map.
// - Metadata: the event metadata's value (`metadata_full.value`, else the deprecated `metadata`), which is
//   svc's event metadata; sent in both fields. Vector's other metadata (source and upstream ids, secrets,
//   Datadog origin) has no place in svc's events and is neither read nor sent.

import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@grpc/grpc-js';
import type * as Protobuf from 'protobufjs';
import { protobufjs } from './protobufjs.js';
import type { InputEvent } from '../../../abi/batch.js';
import { IntegralFloat } from '../../../abi/codec.js';
import { Regex, Timestamp, type RemapValue } from '../../../abi/values.js';
import { VECTOR_PROTO } from '../../package-files.js';
import { type Metric, type MetricTags, metricEvent, readMetric } from './metric.js';

/** The gRPC service: messages cross it as their encoded bytes, which each side decodes and encodes itself
 * (the sink encodes a request once for all its retries; the source counts a bad request as an error). */
const raw = {
  requestStream: false,
  responseStream: false,
  requestSerialize: (bytes: Buffer) => bytes,
  requestDeserialize: (bytes: Buffer) => bytes,
  responseSerialize: (bytes: Buffer) => bytes,
  responseDeserialize: (bytes: Buffer) => bytes,
} as const;

export const VECTOR_SERVICE = {
  PushEvents: { path: '/vector.Vector/PushEvents', ...raw },
  HealthCheck: { path: '/vector.Vector/HealthCheck', ...raw },
} satisfies ServiceDefinition;

/** HealthCheckResponse.status. */
export const ServingStatus = { SERVING: 0, NOT_SERVING: 1 } as const;

/** gRPC's standard health service, which Vector's source serves beside its own (load balancers ask it). */
export const GRPC_HEALTH_SERVICE = {
  Check: { path: '/grpc.health.v1.Health/Check', ...raw },
} satisfies ServiceDefinition;

/** The messages of grpc.health.v1 that Check exchanges. */
const GRPC_HEALTH_MESSAGES = `
syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}`;

interface Messages {
  pushEventsRequest: Protobuf.Type;
  healthCheckResponse: Protobuf.Type;
  grpcHealthRequest: Protobuf.Type;
  grpcHealthResponse: Protobuf.Type;
}

let loaded: Messages | undefined;

/** The protobuf messages, parsed once when first needed (a pipeline without `vector` never loads them). */
function messages(): Messages {
  if (loaded === undefined) {
    const protobuf = protobufjs();
    const root = protobuf.loadSync(fileURLToPath(VECTOR_PROTO), new protobuf.Root());
    const health = protobuf.parse(GRPC_HEALTH_MESSAGES).root;
    loaded = {
      pushEventsRequest: root.lookupType('vector.PushEventsRequest'),
      healthCheckResponse: root.lookupType('vector.HealthCheckResponse'),
      grpcHealthRequest: health.lookupType('grpc.health.v1.HealthCheckRequest'),
      grpcHealthResponse: health.lookupType('grpc.health.v1.HealthCheckResponse'),
    };
  }
  return loaded;
}

/** An empty message (PushEventsResponse, HealthCheckRequest): no fields, no bytes. */
export const EMPTY_MESSAGE = Buffer.alloc(0);

export function encodeHealthCheckResponse(status: number): Buffer {
  const type = messages().healthCheckResponse;
  return Buffer.from(type.encode(type.create({ status })).finish());
}

/** The service a grpc.health.v1 Check asks about ("": the server as a whole). */
export function grpcHealthService(bytes: Uint8Array): string {
  return (messages().grpcHealthRequest.decode(bytes) as unknown as { service: string }).service;
}

/** A grpc.health.v1 Check's answer: SERVING or NOT_SERVING. */
export function encodeGrpcHealthResponse(serving: boolean): Buffer {
  const type = messages().grpcHealthResponse;
  return Buffer.from(type.encode(type.create({ status: serving ? 1 : 2 })).finish());
}

export function decodeHealthCheckResponse(bytes: Uint8Array): number {
  return (messages().healthCheckResponse.decode(bytes) as unknown as { status: number }).status;
}

// ---- protobuf → svc ------------------------------------------------------------------------------------

// The decoded messages as protobufjs gives them: an absent message field is null, a oneof's name property
// says which of its fields is set.

/** An int64 as protobufjs decodes it: a Long (its `long` dependency), or a number without it. */
type Int64 = number | { toString(): string; toNumber(): number };

interface ProtoTimestamp {
  seconds: Int64;
  nanos: number;
}

interface ProtoValue {
  kind?: string;
  rawBytes?: Uint8Array;
  timestamp?: ProtoTimestamp;
  integer?: Int64;
  float?: number;
  boolean?: boolean;
  map?: { fields: Record<string, ProtoValue> };
  array?: { items: ProtoValue[] };
  null?: number;
}

interface ProtoMetadata {
  value?: ProtoValue;
}

interface ProtoLog {
  fields: Record<string, ProtoValue>;
  value?: ProtoValue;
  metadata?: ProtoValue;
  metadataFull?: ProtoMetadata;
}

interface ProtoTrace {
  fields: Record<string, ProtoValue>;
  metadata?: ProtoValue;
  metadataFull?: ProtoMetadata;
}

interface ProtoBucket {
  upperLimit: number;
  count: Int64;
}

interface ProtoQuantile {
  quantile: number;
  value: number;
}

interface ProtoSketch {
  count: number;
  min: number;
  max: number;
  sum: number;
  avg: number;
  k: number[];
  n: number[];
}

interface ProtoMetric {
  name: string;
  namespace: string;
  timestamp?: ProtoTimestamp;
  tagsV1: Record<string, string>;
  tagsV2: Record<string, { values: Array<{ value?: string | null }> }>;
  kind: number;
  value?: string;
  counter?: { value: number };
  gauge?: { value: number };
  set?: { values: string[] };
  distribution1?: { values: number[]; sampleRates: number[]; statistic: number };
  distribution2?: { samples: Array<{ value: number; rate: number }>; statistic: number };
  aggregatedHistogram1?: { buckets: number[]; counts: number[]; count: number; sum: number };
  aggregatedHistogram2?: { buckets: ProtoBucket[]; count: number; sum: number };
  aggregatedHistogram3?: { buckets: ProtoBucket[]; count: Int64; sum: number };
  aggregatedSummary1?: { quantiles: number[]; values: number[]; count: number; sum: number };
  aggregatedSummary2?: { quantiles: ProtoQuantile[]; count: number; sum: number };
  aggregatedSummary3?: { quantiles: ProtoQuantile[]; count: Int64; sum: number };
  sketch?: { sketch?: string; agentDdSketch?: ProtoSketch };
  intervalMs: number;
  metadata?: ProtoValue;
  metadataFull?: ProtoMetadata;
}

interface ProtoEventWrapper {
  event?: 'log' | 'metric' | 'trace';
  log?: ProtoLog;
  metric?: ProtoMetric;
  trace?: ProtoTrace;
}

const bigint = (value: Int64): bigint => (typeof value === 'number' ? BigInt(value) : BigInt(value.toString()));

const timestampOf = (value: ProtoTimestamp) =>
  new Timestamp(bigint(value.seconds) * 1_000_000_000n + BigInt(value.nanos));

/** Leaves out what has no known kind (undefined), as Vector's decoding does. */
function valueOf(value: ProtoValue): unknown {
  switch (value.kind) {
    case 'rawBytes':
      return value.rawBytes;
    case 'timestamp':
      return timestampOf(value.timestamp!);
    case 'integer':
      return bigint(value.integer!);
    case 'float':
      if (Number.isNaN(value.float)) throw new TypeError('a float value is NaN');
      return new IntegralFloat(value.float!);
    case 'boolean':
      return value.boolean;
    case 'map':
      return mapOf(value.map!.fields);
    case 'array':
      return value.array!.items.map(valueOf).filter((item) => item !== undefined);
    case 'null':
      return null;
    default:
      return undefined;
  }
}

function mapOf(fields: Record<string, ProtoValue>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) object[key] = valueOf(value);
  return object;
}

function metadataOf(event: { metadata?: ProtoValue; metadataFull?: ProtoMetadata }): object {
  const value = event.metadataFull ? event.metadataFull.value : event.metadata;
  const metadata = value == null ? undefined : valueOf(value);
  return typeof metadata === 'object' && metadata !== null ? metadata : {};
}

const numberOf = (value: Int64) => (typeof value === 'number' ? value : value.toNumber());
const statisticOf = (statistic: number) => (statistic === 1 ? 'summary' : 'histogram');

function metricValueOf(metric: ProtoMetric): Metric['value'] {
  switch (metric.value) {
    case 'counter':
      return { type: 'counter', value: metric.counter!.value };
    case 'gauge':
      return { type: 'gauge', value: metric.gauge!.value };
    case 'set':
      return { type: 'set', values: metric.set!.values };
    case 'distribution1': {
      const { values, sampleRates, statistic } = metric.distribution1!;
      const samples = values.map((value, i) => ({ value, rate: sampleRates[i] ?? 0 }));
      return { type: 'distribution', samples, statistic: statisticOf(statistic) };
    }
    case 'distribution2': {
      const { samples, statistic } = metric.distribution2!;
      return {
        type: 'distribution',
        samples: samples.map(({ value, rate }) => ({ value, rate })),
        statistic: statisticOf(statistic),
      };
    }
    case 'aggregatedHistogram1': {
      const { buckets, counts, count, sum } = metric.aggregatedHistogram1!;
      const zipped = buckets.map((upper_limit, i) => ({ upper_limit, count: counts[i] ?? 0 }));
      return { type: 'aggregated_histogram', buckets: zipped, count, sum };
    }
    case 'aggregatedHistogram2':
    case 'aggregatedHistogram3': {
      const { buckets, count, sum } = metric[metric.value]!;
      return {
        type: 'aggregated_histogram',
        buckets: buckets.map((bucket) => ({ upper_limit: bucket.upperLimit, count: numberOf(bucket.count) })),
        count: numberOf(count),
        sum,
      };
    }
    case 'aggregatedSummary1': {
      const { quantiles, values, count, sum } = metric.aggregatedSummary1!;
      const zipped = quantiles.map((quantile, i) => ({ quantile, value: values[i] ?? 0 }));
      return { type: 'aggregated_summary', quantiles: zipped, count, sum };
    }
    case 'aggregatedSummary2':
    case 'aggregatedSummary3': {
      const { quantiles, count, sum } = metric[metric.value]!;
      return {
        type: 'aggregated_summary',
        quantiles: quantiles.map(({ quantile, value }) => ({ quantile, value })),
        count: numberOf(count),
        sum,
      };
    }
    case 'sketch': {
      const sketch = metric.sketch!.agentDdSketch;
      if (sketch == null) throw new TypeError(`metric ${metric.name} has a sketch of no known kind`);
      const { count, min, max, sum, avg, k, n } = sketch;
      const float = (value: number) => new IntegralFloat(value);
      return {
        type: 'sketch',
        sketch: {
          AgentDDSketch: { bins: { k, n }, count, min: float(min), max: float(max), sum: float(sum), avg: float(avg) },
        } as unknown as RemapValue,
      };
    }
    default:
      throw new TypeError(`metric ${metric.name} has no value`);
  }
}

/** `tags_v2` (every value of a tag), then `tags_v1` over them: its single value becomes the tag's last. */
function tagsOf(metric: ProtoMetric): MetricTags | undefined {
  const tags: MetricTags = {};
  for (const [key, { values }] of Object.entries(metric.tagsV2)) {
    const all = values.map(({ value }) => value ?? null);
    tags[key] = all.length === 1 ? all[0]! : all;
  }
  for (const [key, value] of Object.entries(metric.tagsV1)) {
    const current = tags[key];
    const others = (Array.isArray(current) ? current : current === undefined ? [] : [current]).filter(
      (other) => other !== value,
    );
    tags[key] = others.length === 0 ? value : [...others, value];
  }
  return Object.keys(tags).length > 0 ? tags : undefined;
}

function metricOf(proto: ProtoMetric): Metric {
  const metric: Metric = {
    name: proto.name,
    kind: proto.kind === 1 ? 'absolute' : 'incremental',
    value: metricValueOf(proto),
  };
  if (proto.namespace !== '') metric.namespace = proto.namespace;
  const tags = tagsOf(proto);
  if (tags !== undefined) metric.tags = tags;
  if (proto.timestamp) metric.timestamp = timestampOf(proto.timestamp).nanos;
  if (proto.intervalMs !== 0) metric.interval_ms = proto.intervalMs;
  return metric;
}

function eventOf(wrapper: ProtoEventWrapper): InputEvent {
  switch (wrapper.event) {
    case 'log': {
      const log = wrapper.log!;
      const event = log.value == null ? mapOf(log.fields) : (valueOf(log.value) ?? null);
      return { kind: 'log', metadata: metadataOf(log), event };
    }
    case 'metric':
      return metricEvent(metricOf(wrapper.metric!), metadataOf(wrapper.metric!));
    case 'trace':
      return { kind: 'trace', metadata: metadataOf(wrapper.trace!), event: mapOf(wrapper.trace!.fields) };
    default:
      throw new TypeError('an event of no known kind');
  }
}

/** The events of a PushEventsRequest, and why each one that cannot be an svc event was left out. Throws when
 * the bytes are no PushEventsRequest. */
export function decodePushEvents(bytes: Uint8Array): { events: InputEvent[]; errors: string[] } {
  const request = messages().pushEventsRequest.decode(bytes) as unknown as { events: ProtoEventWrapper[] };
  const events: InputEvent[] = [];
  const errors: string[] = [];
  for (const wrapper of request.events) {
    try {
      events.push(eventOf(wrapper));
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  return { events, errors };
}

// ---- svc → protobuf ------------------------------------------------------------------------------------

/** An int64 as protobufjs writes it without precision loss: its two 32-bit halves. */
const int64 = (value: bigint) => ({
  low: Number(BigInt.asIntN(32, value)),
  high: Number(BigInt.asIntN(32, value >> 32n)),
  unsigned: false,
});

const protoTimestamp = (nanos: bigint) => {
  const seconds = nanos >= 0n ? nanos / 1_000_000_000n : -((-nanos + 999_999_999n) / 1_000_000_000n);
  return { seconds: int64(seconds), nanos: Number(nanos - seconds * 1_000_000_000n) };
};

/** A decoded remap value (abi/values.ts) as a protobuf Value. */
function protoValue(value: RemapValue): object {
  if (value === null) return { null: 0 };
  switch (typeof value) {
    case 'boolean':
      return { boolean: value };
    case 'bigint':
      return { integer: int64(value) };
    case 'number':
      return { float: value };
    case 'string':
      return { rawBytes: Buffer.from(value) };
  }
  if (value instanceof Uint8Array) return { rawBytes: value };
  if (value instanceof Timestamp) return { timestamp: protoTimestamp(value.nanos) };
  if (value instanceof Regex) return { rawBytes: Buffer.from(value.pattern) };
  if (Array.isArray(value)) return { array: { items: value.map(protoValue) } };
  return { map: { fields: protoFields(value) } };
}

function protoFields(object: { [key: string]: RemapValue }): Record<string, object> {
  const fields: Record<string, object> = {};
  for (const [key, value] of Object.entries(object)) fields[key] = protoValue(value);
  return fields;
}

const isObject = (value: RemapValue): value is { [key: string]: RemapValue } =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof Uint8Array) &&
  !(value instanceof Timestamp) &&
  !(value instanceof Regex);

function protoMetadata(metadata: RemapValue): { metadata: object; metadataFull: object } {
  const value = protoValue(metadata);
  return { metadata: value, metadataFull: { value } };
}

const protoStatistic = (statistic: 'histogram' | 'summary') => (statistic === 'summary' ? 1 : 0);

function protoMetricValue(value: Metric['value']): object {
  switch (value.type) {
    case 'counter':
    case 'gauge':
      return { [value.type]: { value: value.value } };
    case 'set':
      return { set: { values: value.values } };
    case 'distribution':
      return { distribution2: { samples: value.samples, statistic: protoStatistic(value.statistic) } };
    case 'aggregated_histogram':
      return {
        aggregatedHistogram3: {
          buckets: value.buckets.map((bucket) => ({
            upperLimit: bucket.upper_limit,
            count: int64(BigInt(bucket.count)),
          })),
          count: int64(BigInt(value.count)),
          sum: value.sum,
        },
      };
    case 'aggregated_summary':
      return { aggregatedSummary3: { quantiles: value.quantiles, count: int64(BigInt(value.count)), sum: value.sum } };
    case 'sketch': {
      const sketch = (value.sketch as { [key: string]: { [key: string]: RemapValue } }).AgentDDSketch;
      if (sketch === undefined) throw new TypeError('a sketch of no known kind');
      const number = (field: RemapValue | undefined) => Number(field ?? 0);
      const bins = sketch.bins as { k?: RemapValue[]; n?: RemapValue[] } | undefined;
      return {
        sketch: {
          agentDdSketch: {
            count: number(sketch.count),
            min: number(sketch.min),
            max: number(sketch.max),
            sum: number(sketch.sum),
            avg: number(sketch.avg),
            k: (bins?.k ?? []).map(number),
            n: (bins?.n ?? []).map(number),
          },
        },
      };
    }
  }
}

function protoMetric(metric: Metric, metadata: RemapValue): object {
  const tagsV1: Record<string, string> = {};
  const tagsV2: Record<string, object> = {};
  for (const [key, tag] of Object.entries(metric.tags ?? {})) {
    const values = Array.isArray(tag) ? tag : [tag];
    tagsV2[key] = { values: values.map((value) => (value === null ? {} : { value })) };
    // The single value, for receivers older than `tags_v2`, as Vector sends it.
    const single = values.at(-1);
    if (single !== null && single !== undefined) tagsV1[key] = single;
  }
  return {
    name: metric.name,
    namespace: metric.namespace ?? '',
    ...(metric.timestamp !== undefined && { timestamp: protoTimestamp(metric.timestamp) }),
    tagsV1,
    tagsV2,
    kind: metric.kind === 'absolute' ? 1 : 0,
    ...protoMetricValue(metric.value),
    intervalMs: metric.interval_ms ?? 0,
    ...protoMetadata(metadata),
  };
}

/** An event of a decoded batch as an EventWrapper. */
function protoEvent({ kind, metadata, event }: Required<InputEvent>): object {
  const meta = metadata as RemapValue;
  const value = event as RemapValue;
  switch (kind) {
    case 'log':
      // An object goes as `fields` alone; anything else as `value`, with the placeholder field Vector adds.
      return {
        log: isObject(value)
          ? { fields: protoFields(value), ...protoMetadata(meta) }
          : { fields: { '.': { null: 0 } }, value: protoValue(value), ...protoMetadata(meta) },
      };
    case 'metric':
      return { metric: protoMetric(readMetric(value), meta) };
    case 'trace':
      return { trace: { fields: isObject(value) ? protoFields(value) : {}, ...protoMetadata(meta) } };
  }
}

/**
 * The PushEventsRequest carrying `events`, encoded; an event it cannot carry throws. The objects `protoEvent`
 * makes have the messages' shape (int64s as their halves), so they are encoded as they are: `fromObject`
 * copied each into a message first.
 */
export function encodePushEvents(events: ReadonlyArray<Required<InputEvent>>): Buffer {
  const type = messages().pushEventsRequest;
  return Buffer.from(type.encode({ events: events.map(protoEvent) }).finish());
}
