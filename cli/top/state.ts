// What svc top shows, as plain data: a row per component with its totals and per-second rates, the state of
// the connection, and the events that change it (from the API's query and subscriptions).

/** The counters a component row shows. */
export type Counter = 'receivedEvents' | 'receivedBytes' | 'sentEvents' | 'sentBytes' | 'errors';
/** The counters shown with a per-second rate beside the total. */
export type RatedCounter = Exclude<Counter, 'errors'>;

interface OutputMetrics {
  sentEventsTotal: number;
  sentEventsPerSecond: number;
}

export interface ComponentRow {
  id: string;
  /** `source`, `transform` or `sink`. */
  kind: string;
  type: string;
  totals: Record<Counter, number>;
  perSecond: Record<RatedCounter, number>;
  /** By output id; `_default` for a component's unnamed output. */
  outputs: ReadonlyMap<string, OutputMetrics>;
}

export type ConnectionStatus =
  | { state: 'connecting' }
  | { state: 'connected'; since: Date }
  /** `retryMs` undefined: no reconnection (--no-reconnect). */
  | { state: 'disconnected'; retryMs: number | undefined };

export interface TopState {
  components: ReadonlyMap<string, ComponentRow>;
  connection: ConnectionStatus;
  /** The last error (a failed query, a subscription the API refused), until the next connection. */
  problem: string | undefined;
}

/** A component's total, and its outputs' totals for sent events. */
interface TotalValue {
  id: string;
  total: number;
  outputs?: ReadonlyArray<{ id: string; total: number }>;
}

/** What a component's counter grew by in one interval, and its outputs' for sent events. */
interface ThroughputValue {
  id: string;
  throughput: number;
  outputs?: ReadonlyArray<{ id: string; throughput: number }>;
}

export type TopEvent =
  /** The components as the API listed them at (re)connection: they replace those shown. */
  | { type: 'components'; rows: readonly ComponentRow[] }
  | { type: 'added'; row: ComponentRow }
  | { type: 'removed'; id: string }
  | { type: 'totals'; counter: Counter; values: readonly TotalValue[] }
  | { type: 'throughputs'; counter: RatedCounter; intervalMs: number; values: readonly ThroughputValue[] }
  | { type: 'connection'; status: ConnectionStatus }
  | { type: 'problem'; message: string };

export const DEFAULT_OUTPUT = '_default';

export const INITIAL_STATE: TopState = {
  components: new Map(),
  connection: { state: 'connecting' },
  problem: undefined,
};

/** A row with nothing counted yet. */
export function emptyRow(id: string, kind: string, type: string): ComponentRow {
  return {
    id,
    kind,
    type,
    totals: { receivedEvents: 0, receivedBytes: 0, sentEvents: 0, sentBytes: 0, errors: 0 },
    perSecond: { receivedEvents: 0, receivedBytes: 0, sentEvents: 0, sentBytes: 0 },
    outputs: new Map(),
  };
}

/**
 * The per-second rate of a throughput, which the API gives as the growth over one interval (Vector's
 * top does the same division, truncated to an integer).
 */
export function perSecond(throughput: number, intervalMs: number): number {
  return Math.trunc((throughput * 1000) / intervalMs);
}

function applyTotals(components: ReadonlyMap<string, ComponentRow>, counter: Counter, values: readonly TotalValue[]) {
  const next = new Map(components);
  for (const value of values) {
    const row = next.get(value.id);
    if (row === undefined) continue;
    const outputs = new Map(row.outputs);
    for (const output of value.outputs ?? []) {
      outputs.set(output.id, { sentEventsPerSecond: 0, ...outputs.get(output.id), sentEventsTotal: output.total });
    }
    next.set(row.id, { ...row, totals: { ...row.totals, [counter]: value.total }, outputs });
  }
  return next;
}

/**
 * A throughput message covers every component: one it leaves out (an API may list only those that
 * changed) had nothing over the interval.
 */
function applyThroughputs(
  components: ReadonlyMap<string, ComponentRow>,
  counter: RatedCounter,
  intervalMs: number,
  values: readonly ThroughputValue[],
) {
  const byId = new Map(values.map((value) => [value.id, value]));
  const next = new Map<string, ComponentRow>();
  for (const [id, row] of components) {
    const value = byId.get(id);
    let outputs = row.outputs;
    if (counter === 'sentEvents') {
      const rates = new Map(
        (value?.outputs ?? []).map((output) => [output.id, perSecond(output.throughput, intervalMs)]),
      );
      outputs = new Map(
        [...row.outputs].map(([output, metrics]) => [
          output,
          { ...metrics, sentEventsPerSecond: rates.get(output) ?? 0 },
        ]),
      );
    }
    next.set(id, {
      ...row,
      perSecond: { ...row.perSecond, [counter]: perSecond(value?.throughput ?? 0, intervalMs) },
      outputs,
    });
  }
  return next;
}

export function applyEvent(state: TopState, event: TopEvent): TopState {
  switch (event.type) {
    case 'components':
      return { ...state, components: new Map(event.rows.map((row) => [row.id, row])) };
    case 'added':
      return { ...state, components: new Map(state.components).set(event.row.id, event.row) };
    case 'removed': {
      const components = new Map(state.components);
      components.delete(event.id);
      return { ...state, components };
    }
    case 'totals':
      return { ...state, components: applyTotals(state.components, event.counter, event.values) };
    case 'throughputs':
      return {
        ...state,
        components: applyThroughputs(state.components, event.counter, event.intervalMs, event.values),
      };
    case 'connection':
      return {
        ...state,
        connection: event.status,
        problem: event.status.state === 'connected' ? undefined : state.problem,
      };
    case 'problem':
      return { ...state, problem: event.message };
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The connection as the header says it. */
export function connectionText(status: ConnectionStatus): string {
  switch (status.state) {
    case 'connecting':
      return 'Connecting...';
    case 'connected': {
      const at = status.since;
      return `Connected (since ${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())})`;
    }
    case 'disconnected':
      return status.retryMs === undefined
        ? 'Disconnected'
        : `Disconnected (reconnecting every ${status.retryMs / 1000} seconds)`;
  }
}
