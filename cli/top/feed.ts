// What svc top asks the API for, and the dashboard events its answers make: the components query, then a
// subscription per counter (totals and per-interval throughputs) and for components added and removed.

import {
  COMPONENT_ADDED,
  COMPONENT_REMOVED,
  ERRORS_TOTALS,
  RECEIVED_BYTES_THROUGHPUTS,
  RECEIVED_BYTES_TOTALS,
  RECEIVED_EVENTS_THROUGHPUTS,
  RECEIVED_EVENTS_TOTALS,
  SENT_BYTES_THROUGHPUTS,
  SENT_BYTES_TOTALS,
  SENT_EVENTS_THROUGHPUTS,
  SENT_EVENTS_TOTALS,
} from './documents.js';
import { emptyRow, type ComponentRow, type Counter, type RatedCounter, type TopEvent } from './state.js';

/** Whether a component id is among those to show (--components). */
export type ComponentFilter = (id: string) => boolean;

interface SentEventsTotal {
  sentEventsTotal: number;
}

interface ComponentNode {
  __typename: 'Source' | 'Transform' | 'Sink';
  componentId: string;
  componentType: string;
  outputs?: Array<{ outputId: string; sentEventsTotal: SentEventsTotal | null }>;
  metrics: {
    receivedBytesTotal?: { receivedBytesTotal: number } | null;
    receivedEventsTotal?: { receivedEventsTotal: number } | null;
    sentBytesTotal?: { sentBytesTotal: number } | null;
    sentEventsTotal?: SentEventsTotal | null;
  };
}

export interface ComponentsData {
  components: { edges: Array<{ node: ComponentNode }> };
}

/** The number of components the query asks for: all of them (Vector's top asks for as many). */
export const ALL_COMPONENTS = 32767;

/** `Source` → `source`. */
const kindOf = (typename: string) => typename.toLowerCase();

/** The rows of the components query's answer that `filter` keeps. */
export function componentRows(data: ComponentsData, filter: ComponentFilter): ComponentRow[] {
  return data.components.edges
    .map(({ node }) => node)
    .filter((node) => filter(node.componentId))
    .map((node) => {
      const row = emptyRow(node.componentId, kindOf(node.__typename), node.componentType);
      const { metrics } = node;
      return {
        ...row,
        totals: {
          ...row.totals,
          receivedEvents: metrics.receivedEventsTotal?.receivedEventsTotal ?? 0,
          receivedBytes: metrics.receivedBytesTotal?.receivedBytesTotal ?? 0,
          sentEvents: metrics.sentEventsTotal?.sentEventsTotal ?? 0,
          sentBytes: metrics.sentBytesTotal?.sentBytesTotal ?? 0,
        },
        outputs: new Map(
          (node.outputs ?? []).map((output) => [
            output.outputId,
            { sentEventsTotal: output.sentEventsTotal?.sentEventsTotal ?? 0, sentEventsPerSecond: 0 },
          ]),
        ),
      };
    });
}

/** A subscription of the dashboard: its document, variables, and the event each result makes (if any). */
export interface Subscription {
  query: string;
  variables: Record<string, unknown>;
  event(data: Record<string, unknown>): TopEvent | undefined;
}

interface TotalItem {
  componentId: string;
  metric: Record<string, number>;
  outputs?: Array<{ outputId: string; sentEventsTotal: SentEventsTotal | null }>;
}

interface ThroughputItem {
  componentId: string;
  throughput: number;
  outputs?: Array<{ outputId: string; throughput: number }>;
}

/** The totals subscriptions: document, result field, the counter it sets, and the metric's field. */
const TOTALS: ReadonlyArray<[string, string, Counter, string]> = [
  [RECEIVED_EVENTS_TOTALS, 'componentReceivedEventsTotals', 'receivedEvents', 'receivedEventsTotal'],
  [RECEIVED_BYTES_TOTALS, 'componentReceivedBytesTotals', 'receivedBytes', 'receivedBytesTotal'],
  [SENT_EVENTS_TOTALS, 'componentSentEventsTotals', 'sentEvents', 'sentEventsTotal'],
  [SENT_BYTES_TOTALS, 'componentSentBytesTotals', 'sentBytes', 'sentBytesTotal'],
  [ERRORS_TOTALS, 'componentErrorsTotals', 'errors', 'errorsTotal'],
];

/** The throughput subscriptions: document, result field, and the counter whose rate it sets. */
const THROUGHPUTS: ReadonlyArray<[string, string, RatedCounter]> = [
  [RECEIVED_EVENTS_THROUGHPUTS, 'componentReceivedEventsThroughputs', 'receivedEvents'],
  [RECEIVED_BYTES_THROUGHPUTS, 'componentReceivedBytesThroughputs', 'receivedBytes'],
  [SENT_EVENTS_THROUGHPUTS, 'componentSentEventsThroughputs', 'sentEvents'],
  [SENT_BYTES_THROUGHPUTS, 'componentSentBytesThroughputs', 'sentBytes'],
];

/** Every subscription the dashboard holds, sampling metrics every `intervalMs`. */
export function subscriptions(intervalMs: number, filter: ComponentFilter): Subscription[] {
  const variables = { interval: intervalMs };
  return [
    {
      query: COMPONENT_ADDED,
      variables: {},
      event(data) {
        const added = data.componentAdded as { __typename: string; componentId: string; componentType: string };
        return filter(added.componentId)
          ? { type: 'added', row: emptyRow(added.componentId, kindOf(added.__typename), added.componentType) }
          : undefined;
      },
    },
    {
      query: COMPONENT_REMOVED,
      variables: {},
      event: (data) => ({ type: 'removed', id: (data.componentRemoved as { componentId: string }).componentId }),
    },
    ...TOTALS.map(
      ([query, field, counter, metric]): Subscription => ({
        query,
        variables,
        event: (data) => ({
          type: 'totals',
          counter,
          values: (data[field] as TotalItem[])
            .filter((item) => filter(item.componentId))
            .map((item) => ({
              id: item.componentId,
              total: item.metric[metric]!,
              outputs: item.outputs?.map((output) => ({
                id: output.outputId,
                total: output.sentEventsTotal?.sentEventsTotal ?? 0,
              })),
            })),
        }),
      }),
    ),
    ...THROUGHPUTS.map(
      ([query, field, counter]): Subscription => ({
        query,
        variables,
        event: (data) => ({
          type: 'throughputs',
          counter,
          intervalMs,
          values: (data[field] as ThroughputItem[])
            .filter((item) => filter(item.componentId))
            .map((item) => ({
              id: item.componentId,
              throughput: item.throughput,
              outputs: item.outputs?.map((output) => ({ id: output.outputId, throughput: output.throughput })),
            })),
        }),
      }),
    ),
  ];
}
