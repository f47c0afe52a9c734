// outputEventsByComponentIdPatterns (tap) and its payloads: the events a tap sampled (Log, Metric, Trace)
// and its notifications, rendered as Vector's tap renders them. JSON and logfmt come from the codec module
// (the sinks' encoders); YAML is that JSON laid out as YAML.

import { GraphQLError } from 'graphql';
import { isMap, isScalar, isSeq, parseDocument, visit } from 'yaml';
import { decode as decodeValue, encode as encodeValue } from '../../../abi/codec.js';
import { Regex, Timestamp, type RemapValue } from '../../../abi/values.js';
import {
  BatchWriter,
  displayFloat,
  type EncodeOptions,
  lossyText,
  rustDebugString,
  withField,
} from '../../../runtime/engine.js';
import { parseFieldPath, TemplateError, valuePath } from '../../config/template.js';
import { TappedEvent, type Tap, type TapItem } from '../../topology/tap.js';
import type { Resolvers } from '../schema.js';
import { checkInterval } from '../streams.js';

type Encoding = 'JSON' | 'YAML' | 'LOGFMT';

/** A sampled event as a member of the `OutputEventsPayload` union. */
interface EventPayload {
  __typename: 'Log' | 'Metric' | 'Trace';
  event: TappedEvent;
}

const EVENT_TYPES = { log: 'Log', metric: 'Metric', trace: 'Trace' } as const;
const NOTIFICATION_TYPES = { matched: 'Matched', notMatched: 'NotMatched', invalidMatch: 'InvalidMatch' } as const;

function payload(item: TapItem): unknown {
  if (item instanceof TappedEvent) return { __typename: EVENT_TYPES[item.kind], event: item } satisfies EventPayload;
  const { kind, message, ...details } = item;
  return {
    __typename: 'EventNotification',
    message,
    notification: { __typename: NOTIFICATION_TYPES[kind], ...details },
  };
}

/** The tap's lists as payloads; unsubscribing detaches the tap, even while it waits for events. */
function payloads(tap: Tap): AsyncIterable<unknown[]> {
  const items = tap[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]: () => ({
      async next() {
        const result = await items.next();
        return result.done ? result : { done: false, value: result.value.map(payload) };
      },
      return: () => items.return!(),
    }),
  };
}

const JSON_ENCODING: EncodeOptions = { codec: 'json', framing: { method: 'bytes' } };
const LOGFMT_ENCODING: EncodeOptions = { codec: 'logfmt', framing: { method: 'bytes' } };

/** Encodes one event (`event`'s record, or `value` as a log event) with the codec module. */
function encoded(event: TappedEvent, options: EncodeOptions, value?: Uint8Array): string {
  let batch = event.batch;
  if (value !== undefined) {
    const log = new BatchWriter();
    log.appendEncoded('log', event.record.metadata, value);
    batch = log.finish();
  }
  const { bytes, errors } = event.codec.encode(batch, options);
  if (errors.length > 0) throw new GraphQLError(`the event cannot be encoded: ${errors[0]!.message}`);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** Vector's JSON of the event: a log's or trace's fields, a metric's native object. */
function eventJson(event: TappedEvent): string {
  return encoded(event, JSON_ENCODING, event.kind === 'trace' ? event.record.event : undefined);
}

/**
 * The event as tap prints it: serde's JSON or YAML of it, or logfmt of its fields (of a metric's native
 * object, as Vector's tap flattens it).
 */
function render(event: TappedEvent, encoding: Encoding): string {
  switch (encoding) {
    case 'JSON':
      return eventJson(event);
    case 'LOGFMT':
      return encoded(event, LOGFMT_ENCODING, event.kind === 'log' ? undefined : event.record.event);
    case 'YAML':
      return yamlOfJson(eventJson(event));
  }
}

/** JSON text as serde_yaml writes the same value: block style (sequences in maps not indented), strings quoted only when they must be
 * (single quotes first), multi-line ones as literal blocks; floats keep their `.0`. */
function yamlOfJson(json: string): string {
  const document = parseDocument(json, { intAsBigInt: true });
  visit(document, {
    Node(_key, node) {
      if (isMap(node) || isSeq(node)) node.flow = false;
      else if (isScalar(node)) node.type = undefined;
    },
  });
  return document.toString({ singleQuote: true, blockQuote: 'literal', lineWidth: 0, indentSeq: false });
}

/** Vector's `json(field)`: the JSON of the value at a path of the event (`.a.b`, `a[0]`); null when none. */
function fieldJson(event: TappedEvent, field: string): string | null {
  let path;
  try {
    path = parseFieldPath(field);
  } catch (error) {
    if (error instanceof TemplateError) return null;
    throw error;
  }
  if (path.metadata) return null;
  const value = event.encodedAt(valuePath(path.segments));
  return value === undefined ? null : valueJson(event, value);
}

/** The JSON of an encoded value of the event. */
function valueJson(event: TappedEvent, value: Uint8Array): string {
  // The value alone as the field `v` of a log event: `{"v":<value>}`.
  const json = encoded(event, JSON_ENCODING, withField(encodeValue({}), ['v'], value));
  return json.slice('{"v":'.length, -1);
}

/** Vector's `to_string_lossy` of a log's message: text as is, containers as JSON. */
function messageText(event: TappedEvent, encodedMessage: Uint8Array): string {
  const value = decodeValue(encodedMessage);
  if (value === null) return '<null>';
  if (typeof value === 'string' || value instanceof Uint8Array) return lossyText(value);
  if (typeof value === 'number') return rustFloat(value);
  if (value instanceof Regex) return value.pattern;
  if (typeof value === 'object' && !(value instanceof Timestamp)) return valueJson(event, encodedMessage);
  return String(value);
}

/** The fields Log, Metric and Trace share. */
const COMPONENT_FIELDS = {
  componentId: ({ event }: EventPayload) => event.component.id,
  componentType: ({ event }: EventPayload) => event.component.type,
  componentKind: ({ event }: EventPayload) => event.component.kind,
  string: ({ event }: EventPayload, { encoding }: { encoding: Encoding }) => render(event, encoding),
};

function timestampText(value: RemapValue | undefined): string | null {
  return value instanceof Timestamp ? value.toString() : null;
}

function decodedTimestamp(encodedTimestamp: Uint8Array | undefined): string | null {
  return encodedTimestamp === undefined ? null : timestampText(decodeValue(encodedTimestamp));
}

/** A native metric object (docs/abi.md): the fields the schema's Metric reads. */
interface NativeMetric {
  name: string;
  namespace?: string | null;
  tags?: Record<string, RemapValue> | null;
  timestamp?: Timestamp | null;
  kind: 'incremental' | 'absolute';
  [valueType: string]: RemapValue | undefined;
}

/** The value types of the native object and their names (Vector's `MetricValue::as_name`). */
const VALUE_TYPES: Record<string, string> = {
  counter: 'counter',
  gauge: 'gauge',
  set: 'set',
  distribution: 'distribution',
  aggregated_histogram: 'aggregated histogram',
  aggregated_summary: 'aggregated summary',
  sketch: 'agent dd sketch',
};

function metricOf(event: TappedEvent): { metric: NativeMetric; type: string } {
  const metric = event.value() as unknown as NativeMetric;
  return {
    metric,
    type: Object.keys(VALUE_TYPES).find((type) => metric[type] !== undefined && metric[type] !== null)!,
  };
}

/** Rust's `{}` of an f64: no `.0` on whole numbers, never an exponent. */
function rustFloat(value: RemapValue | undefined): string {
  return typeof value === 'number' ? displayFloat(value).replace(/\.0$/, '') : String(value);
}

type Fields = Record<string, RemapValue>;

/** Vector's `Display` of a metric value: `1.5`, `a "b c"`, `histogram 1@2.5 …`, `count=2 sum=3 1@0.5 …`. */
function metricValueText(event: TappedEvent, metric: NativeMetric, type: string): string {
  const value = metric[type] as Fields;
  const list = (items: RemapValue, item: (fields: Fields) => string) => (items as Fields[]).map(item).join(' ');
  switch (type) {
    case 'counter':
    case 'gauge':
      return rustFloat(value.value);
    case 'set':
      return (value.values as RemapValue[])
        .map((word) => {
          const text = lossyText(word);
          return /[\s"]/u.test(text) ? rustDebugString(text) : text;
        })
        .join(' ');
    case 'distribution':
      return `${lossyText(value.statistic!)} ${list(value.samples!, (s) => `${s.rate}@${rustFloat(s.value)}`)}`;
    case 'aggregated_histogram':
      return `count=${value.count} sum=${rustFloat(value.sum)} ${list(value.buckets!, (b) => `${b.count}@${rustFloat(b.upper_limit)}`)}`;
    case 'aggregated_summary':
      return `count=${value.count} sum=${rustFloat(value.sum)} ${list(value.quantiles!, (q) => `${rustFloat(q.quantile)}@${rustFloat(q.value)}`)}`;
    default:
      // A sketch: its JSON (Vector prints quantiles it estimates from the sketch).
      return fieldJson(event, type) ?? '';
  }
}

export const tapResolvers: Resolvers = {
  Subscription: {
    outputEventsByComponentIdPatterns: {
      subscribe: (
        _parent,
        args: { outputsPatterns: string[]; inputsPatterns?: string[] | null; interval: number; limit: number },
        context,
      ) => {
        checkInterval(args.interval);
        if (!Number.isInteger(args.limit) || args.limit < 1)
          throw new GraphQLError(`limit must be a positive integer, got ${args.limit}`);
        const tap = context.tap.attach({
          outputsPatterns: args.outputsPatterns,
          inputsPatterns: args.inputsPatterns ?? [],
          interval: args.interval,
          limit: args.limit,
        });
        return payloads(tap);
      },
    },
  },
  Log: {
    ...COMPONENT_FIELDS,
    message: ({ event }: EventPayload) => {
      const message = event.message();
      return message === undefined ? null : messageText(event, message);
    },
    timestamp: ({ event }: EventPayload) => decodedTimestamp(event.timestamp()),
    json: ({ event }: EventPayload, { field }: { field: string }) => fieldJson(event, field),
  },
  Metric: {
    ...COMPONENT_FIELDS,
    timestamp: ({ event }: EventPayload) => timestampText(metricOf(event).metric.timestamp ?? undefined),
    name: ({ event }: EventPayload) => metricOf(event).metric.name,
    namespace: ({ event }: EventPayload) => metricOf(event).metric.namespace ?? null,
    kind: ({ event }: EventPayload) => metricOf(event).metric.kind.toUpperCase(),
    valueType: ({ event }: EventPayload) => VALUE_TYPES[metricOf(event).type],
    value: ({ event }: EventPayload) => {
      const { metric, type } = metricOf(event);
      return metricValueText(event, metric, type);
    },
    tags: ({ event }: EventPayload) =>
      Object.entries(metricOf(event).metric.tags ?? {}).map(([key, value]) => ({
        key,
        value: value === null ? '' : lossyText(value),
      })),
  },
  Trace: {
    ...COMPONENT_FIELDS,
    json: ({ event }: EventPayload, { field }: { field: string }) => fieldJson(event, field),
  },
};
