// The metric subscriptions (Vector's `MetricsSubscription`) and the metric values the component queries
// share with them. Every value is a sum of the process's series of one metric: per component (its
// `component_id` tag), per output (`output` tag), or over the whole instance.
//
// As Vector does: the `component*Totals` yield, each interval, the components whose sum changed since the
// previous tick (on the first, those above zero; Vector waits until a counter that restarted after expiring
// passes its old value); the `component*Throughputs` yield every component with the growth of its sum since
// the previous tick (events or bytes per interval, not per second; the first tick only takes the starting
// values). The instance-wide `receivedEventsTotal`, `sentEventsTotal`, `errorsTotal` and `allocatedBytes`
// yield one sum per tick (Vector sends one value per series, which names no component); their throughputs
// yield the growth when there is one. No allocation tracing exists: no series `component_allocated_bytes`,
// so `allocatedBytes` yields nothing and `componentAllocatedBytes` empty lists, as Vector without
// `--allocation-tracing`.

import type { ApiContext } from '../context.js';
import type { Resolvers } from '../schema.js';
import type { MetricSample } from '../../telemetry/metrics.js';
import { every } from '../streams.js';
import { uptime } from './core.js';

/** The series each metric of the schema sums, by the name of the field that carries its value. */
const SERIES = {
  receivedEventsTotal: (name: string) => name === 'component_received_events_total',
  receivedBytesTotal: (name: string) => name === 'component_received_bytes_total',
  sentEventsTotal: (name: string) => name === 'component_sent_events_total',
  sentBytesTotal: (name: string) => name === 'component_sent_bytes_total',
  errorsTotal: (name: string) => name.endsWith('_errors_total'),
  allocatedBytes: (name: string) => name === 'component_allocated_bytes',
};

export type MetricField = keyof typeof SERIES;

/** A value of the schema's metric types (`ReceivedEventsTotal`, `SentBytesTotal`…). */
export type MetricTypeValue = { timestamp: string } & { [field in MetricField]?: number };

export function metricValue(field: MetricField, value: number): MetricTypeValue {
  return { timestamp: new Date().toISOString(), [field]: value };
}

/** Vector's order of keys and ids (Rust's `Ord` on strings and numbers). */
export function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sums of `field`'s series by `key`, in the order of the keys (series without a key are left out). */
export function sumsBy(
  samples: readonly MetricSample[],
  field: MetricField,
  key: (sample: MetricSample) => string | undefined,
): Map<string, number> {
  const sums = new Map<string, number>();
  for (const sample of samples) {
    if (sample.value.type === 'histogram' || !SERIES[field](sample.name)) continue;
    const at = key(sample);
    if (at !== undefined) sums.set(at, (sums.get(at) ?? 0) + sample.value.value);
  }
  return new Map([...sums].sort(([a], [b]) => compare(a, b)));
}

const byComponent = (sample: MetricSample) => sample.tags.component_id;
const byOutput = (sample: MetricSample) => sample.tags.output;
const whole = () => '';

/** The sum of `field`'s series among `samples`, as the schema's value; null when there is no such series. */
export function metric(samples: readonly MetricSample[], field: MetricField): MetricTypeValue | null {
  const sum = sumsBy(samples, field, whole).get('');
  return sum === undefined ? null : metricValue(field, sum);
}

/** Samples of one component's series. */
export function componentSamples(context: ApiContext, id: string): MetricSample[] {
  return context.metrics.snapshot().filter((sample) => sample.tags.component_id === id);
}

/** Records `value` under `key`; true when it differs from the previous one (0 when none): a counter grew,
 * or restarted from zero after its series expired; a gauge moved. */
function changed(last: Map<string, number>, key: string, value: number): boolean {
  const previous = last.get(key) ?? 0;
  last.set(key, value);
  return value !== previous;
}

/** Records `value` under `key`; its growth since the previous one (0 when none). A counter below its
 * previous value expired and restarted from zero: all of it is new. */
function delta(last: Map<string, number>, key: string, value: number): number {
  const previous = last.get(key) ?? 0;
  last.set(key, value);
  return value < previous ? value : value - previous;
}

/** Each tick, `{ componentId, metric }` of the components whose sum of `field` changed. */
function componentTotals(context: ApiContext, interval: number, field: MetricField) {
  const last = new Map<string, number>();
  return every(interval, () =>
    [...sumsBy(context.metrics.snapshot(), field, byComponent)]
      .filter(([id, value]) => changed(last, id, value))
      .map(([id, value]) => ({ componentId: id, metric: metricValue(field, value) })),
  );
}

/** Yields `produce()` every tick but the first, which only primes the state it keeps. */
function afterFirstTick<T>(interval: number, produce: () => T): AsyncIterable<T> {
  let primed = false;
  return every(interval, () => {
    const value = produce();
    if (primed) return value;
    primed = true;
    return undefined;
  });
}

/** From the second tick, `{ componentId, throughput }` of every component with a series of `field`. */
function componentThroughputs(context: ApiContext, interval: number, field: MetricField) {
  const last = new Map<string, number>();
  return afterFirstTick(interval, () =>
    [...sumsBy(context.metrics.snapshot(), field, byComponent)].map(([id, value]) => ({
      componentId: id,
      throughput: delta(last, id, value),
    })),
  );
}

/** Sent events per component, with the sums per output. */
function sentEventsByComponent(
  context: ApiContext,
): Array<{ id: string; total: number; outputs: Array<[string, number]> }> {
  const samples = context.metrics.snapshot();
  return [...sumsBy(samples, 'sentEventsTotal', byComponent)].map(([id, total]) => ({
    id,
    total,
    outputs: [
      ...sumsBy(
        samples.filter((sample) => sample.tags.component_id === id),
        'sentEventsTotal',
        byOutput,
      ),
    ],
  }));
}

/** The instance-wide sum of `field`, each tick where a series of it exists. */
function instanceTotal(context: ApiContext, interval: number, field: MetricField) {
  return every(interval, () => metric(context.metrics.snapshot(), field) ?? undefined);
}

/** From the second tick, the growth of the instance-wide sum of `field`, on ticks where it grew. */
function instanceThroughput(context: ApiContext, interval: number, field: MetricField) {
  const last = new Map<string, number>();
  return afterFirstTick(interval, () => {
    const change = delta(last, '', sumsBy(context.metrics.snapshot(), field, whole).get('') ?? 0);
    return change > 0 ? change : undefined;
  });
}

type Interval = { interval: number };

export const metricsResolvers: Resolvers = {
  Subscription: {
    metrics: {
      subscribe: (_parent, { interval }: Interval, context) =>
        every(interval, () => ({ __typename: 'Uptime', ...uptime(context) })),
    },
    receivedEventsTotal: {
      subscribe: (_parent, { interval }: Interval, context) => instanceTotal(context, interval, 'receivedEventsTotal'),
    },
    sentEventsTotal: {
      subscribe: (_parent, { interval }: Interval, context) => instanceTotal(context, interval, 'sentEventsTotal'),
    },
    errorsTotal: {
      subscribe: (_parent, { interval }: Interval, context) => instanceTotal(context, interval, 'errorsTotal'),
    },
    allocatedBytes: {
      subscribe: (_parent, { interval }: Interval, context) => instanceTotal(context, interval, 'allocatedBytes'),
    },
    receivedEventsThroughput: {
      subscribe: (_parent, { interval }: Interval, context) =>
        instanceThroughput(context, interval, 'receivedEventsTotal'),
    },
    sentEventsThroughput: {
      subscribe: (_parent, { interval }: Interval, context) => instanceThroughput(context, interval, 'sentEventsTotal'),
    },

    componentReceivedEventsTotals: {
      subscribe: (_parent, { interval }: Interval, context) =>
        componentTotals(context, interval, 'receivedEventsTotal'),
    },
    componentReceivedBytesTotals: {
      subscribe: (_parent, { interval }: Interval, context) => componentTotals(context, interval, 'receivedBytesTotal'),
    },
    componentSentBytesTotals: {
      subscribe: (_parent, { interval }: Interval, context) => componentTotals(context, interval, 'sentBytesTotal'),
    },
    componentErrorsTotals: {
      subscribe: (_parent, { interval }: Interval, context) => componentTotals(context, interval, 'errorsTotal'),
    },
    componentAllocatedBytes: {
      subscribe: (_parent, { interval }: Interval, context) => componentTotals(context, interval, 'allocatedBytes'),
    },
    componentReceivedEventsThroughputs: {
      subscribe: (_parent, { interval }: Interval, context) =>
        componentThroughputs(context, interval, 'receivedEventsTotal'),
    },
    componentReceivedBytesThroughputs: {
      subscribe: (_parent, { interval }: Interval, context) =>
        componentThroughputs(context, interval, 'receivedBytesTotal'),
    },
    componentSentBytesThroughputs: {
      subscribe: (_parent, { interval }: Interval, context) =>
        componentThroughputs(context, interval, 'sentBytesTotal'),
    },

    // A component is sent when its sum changed, with the outputs that changed.
    componentSentEventsTotals: {
      subscribe: (_parent, { interval }: Interval, context) => {
        const last = new Map<string, number>();
        return every(interval, () =>
          sentEventsByComponent(context).flatMap(({ id, total, outputs }) => {
            const changedOutputs = outputs.filter(([output, value]) => changed(last, `${id}\0${output}`, value));
            if (!changed(last, id, total)) return [];
            return [
              {
                componentId: id,
                metric: metricValue('sentEventsTotal', total),
                outputs: changedOutputs.map(([output, value]) => ({
                  outputId: output,
                  sentEventsTotal: metricValue('sentEventsTotal', value),
                })),
              },
            ];
          }),
        );
      },
    },
    componentSentEventsThroughputs: {
      subscribe: (_parent, { interval }: Interval, context) => {
        const last = new Map<string, number>();
        return afterFirstTick(interval, () =>
          sentEventsByComponent(context).map(({ id, total, outputs }) => ({
            componentId: id,
            throughput: delta(last, id, total),
            outputs: outputs.map(([output, value]) => ({
              outputId: output,
              throughput: delta(last, `${id}\0${output}`, value),
            })),
          })),
        );
      },
    },
  },
};
