// `aggregate`: Vector's aggregate transform. Metrics of one series (name, namespace, tags) are combined by
// `mode` over `interval_ms` and leave at each flush (the topology's periodic flush) and at shutdown: `Auto`
// sums incremental metrics and keeps the latest absolute one, `Sum` sums incremental, `Latest` keeps the
// latest absolute, `Count` counts metrics, `Diff` gives the change of an absolute metric since the last
// flush, `Max`/`Min` the extreme absolute gauge, `Mean`/`Stdev` over absolute gauges. Metrics a mode does not
// take pass through at once. A flushed metric carries the finalizers of every metric merged into it.

import { z } from 'zod';
import { ByteReader, decode, encode, Wire } from '../../../abi/codec.js';
import { BatchReader, BatchWriter, type RecordView } from '../../../runtime/engine.js';
import type { TransformDefinition, TransformResult, TransformRunner } from '../component.js';
import { Timestamp } from '../../../abi/values.js';
import { appendMetric, readMetric, subtractMetric, updateMetric, type Metric } from '../support/metric.js';

const MODES = ['Auto', 'Sum', 'Latest', 'Count', 'Diff', 'Max', 'Min', 'Mean', 'Stdev'] as const;
type Mode = (typeof MODES)[number];

const options = z.strictObject({
  interval_ms: z.number().int().positive().default(10_000),
  mode: z.enum(MODES).default('Auto'),
});

type AggregateOptions = z.output<typeof options>;

interface AggregatePlan {
  mode: Mode;
}

const aggregate: TransformDefinition<AggregateOptions, AggregatePlan> = {
  kind: 'transform',
  type: 'aggregate',
  description: 'Aggregate metrics passing through a topology.',
  options,
  inputs: () => ['metric'],
  outputs: () => [{ name: undefined, kinds: ['metric'] }],
  flushPeriodMs: (config) => config.interval_ms,
  prepare: async (config) => ({ mode: config.mode }),
  create: (plan) => createAggregate(plan),
};

export default aggregate;

/** A series' metric so far, with the metadata of the first metric and the input batches it holds events of. */
interface Entry {
  metric: Metric;
  metadata: Uint8Array;
  tickets: Set<number>;
}

/** Stands for an absent field in a series key: not a value tag, so it never equals an encoded value. */
const MISSING = Buffer.from([0xff]);

/** A metric record's top-level fields, still encoded, found in one pass over it. */
function fieldsOf(event: Uint8Array): Map<string, Uint8Array> {
  const fields = new Map<string, Uint8Array>();
  const r = new ByteReader(event);
  if (r.u8() !== Wire.Object) return fields;
  const count = r.u32();
  r.u32(); // byte length
  for (let i = 0; i < count; i++) {
    const key = r.sized();
    const start = r.at;
    r.skip();
    fields.set(keyName(key), event.subarray(start, r.at));
  }
  return fields;
}

/** The native metric's keys are ASCII and few: named from their bytes without a decoder, remembered by
 * length and first bytes (and checked whole). */
const keyNames = new Map<number, string>();
function keyName(key: Uint8Array): string {
  const code = (key.length << 16) | (key[0]! << 8) | (key[1] ?? 0);
  const known = keyNames.get(code);
  if (known !== undefined && key.every((byte, i) => known.charCodeAt(i) === byte)) return known;
  const name = String.fromCharCode(...key);
  if (known === undefined) keyNames.set(code, name);
  return name;
}

/** The series (name, namespace, tags) as a map key, from their encodings (a tag object's keys are sorted). */
const seriesOf = (fields: Map<string, Uint8Array>): string =>
  Buffer.concat([
    fields.get('name') ?? MISSING,
    fields.get('namespace') ?? MISSING,
    fields.get('tags') ?? MISSING,
  ]).toString('latin1');

/** Of a counter or gauge, what adding it to another takes (its kind, value and time), decoded alone;
 * undefined for other value types. */
function numericPart(fields: Map<string, Uint8Array>, incremental: boolean): Metric | undefined {
  for (const type of ['counter', 'gauge'] as const) {
    const encoded = fields.get(type);
    if (encoded === undefined) continue;
    const value = (decode(encoded) as { value?: unknown }).value;
    if (typeof value !== 'number' && typeof value !== 'bigint') return undefined;
    const metric: Metric = {
      name: '',
      kind: incremental ? 'incremental' : 'absolute',
      value: { type, value: Number(value) },
    };
    const [timestamp, interval] = [fields.get('timestamp'), fields.get('interval_ms')].map(
      (field) => field && decode(field),
    );
    if (timestamp instanceof Timestamp) metric.timestamp = timestamp.nanos;
    if (typeof interval === 'number' || typeof interval === 'bigint') metric.interval_ms = Number(interval);
    return metric;
  }
  return undefined;
}

/** `"incremental"`, encoded: a string tag, its u32 length, its bytes. */
const INCREMENTAL = Buffer.from(encode('incremental'));

/** What `record` did with a metric. */
type Recorded = 'passed' | 'recorded' | 'failed';

export function createAggregate(plan: AggregatePlan): TransformRunner {
  const { mode } = plan;
  /** By series, in the order first seen. */
  let entries = new Map<string, Entry>();
  /** `Mean` and `Stdev`: each series' absolute gauges since the last flush. */
  let gauges = new Map<string, Entry[]>();
  /** `Diff`: the metrics of the last flush, before their difference was taken. */
  let previous = new Map<string, Metric>();
  /** Per ticket, how many entries hold events of its batch. */
  const holders = new Map<number, number>();

  const hold = (entry: Entry, ticket: number | undefined) => {
    if (ticket === undefined || entry.tickets.has(ticket)) return;
    entry.tickets.add(ticket);
    holders.set(ticket, (holders.get(ticket) ?? 0) + 1);
  };
  /** Lets an entry's tickets go; those no entry holds any more are released (but the current one, which the
   * caller settles through `retains`). */
  const letGo = (entry: Entry, releases: number[], current?: number) => {
    for (const ticket of entry.tickets) {
      const left = holders.get(ticket)! - 1;
      if (left > 0) holders.set(ticket, left);
      else {
        holders.delete(ticket);
        if (ticket !== current) releases.push(ticket);
      }
    }
  };
  const newEntry = (metric: Metric, metadata: Uint8Array, ticket: number | undefined): Entry => {
    const entry = { metric, metadata: new Uint8Array(metadata), tickets: new Set<number>() };
    hold(entry, ticket);
    return entry;
  };

  /** Vector's `Aggregate::record`, for the metric of `view`: decoded whole only when it is kept whole. */
  function record(view: RecordView, ticket: number | undefined, releases: number[]): Recorded {
    const fields = fieldsOf(view.event);
    const key = seriesOf(fields);
    const existing = entries.get(key);
    const incremental = INCREMENTAL.equals(fields.get('kind') ?? MISSING);
    const metadata = view.metadata;
    /** The metric whole, or (with `numeric`) only its value and time where that is enough to add it. */
    const decode = (numeric = false): Metric =>
      (numeric ? numericPart(fields, incremental) : undefined) ?? readMetric(new ByteReader(view.event).value());
    const replace = () => {
      if (existing) letGo(existing, releases, ticket);
      entries.set(key, newEntry(decode(), metadata, ticket));
    };
    switch (mode) {
      case 'Auto':
      case 'Sum':
        if (!incremental) {
          if (mode === 'Sum') return 'passed';
          replace();
          return 'recorded';
        }
        if (existing === undefined) entries.set(key, newEntry(decode(), metadata, ticket));
        else if (existing.metric.kind === 'incremental' && updateMetric(existing.metric, decode(true)))
          hold(existing, ticket);
        else {
          replace();
          return 'failed';
        }
        return 'recorded';
      case 'Latest':
      case 'Diff':
        if (incremental) return 'passed';
        replace();
        return 'recorded';
      case 'Count': {
        const one: Metric = { ...decode(existing !== undefined), value: { type: 'counter', value: 1 } };
        if (existing === undefined) {
          entries.set(key, newEntry(one, metadata, ticket));
          return 'recorded';
        }
        if (existing.metric.kind !== one.kind || !updateMetric(existing.metric, one)) return 'failed';
        hold(existing, ticket);
        return 'recorded';
      }
      case 'Max':
      case 'Min': {
        if (incremental) return 'passed';
        if (existing === undefined) {
          entries.set(key, newEntry(decode(), metadata, ticket));
          return 'recorded';
        }
        if (existing.metric.kind !== 'absolute') {
          replace();
          return 'failed';
        }
        const [held, added] = [existing.metric.value, decode(true).value];
        if (held.type === 'gauge' && added.type === 'gauge') {
          if (mode === 'Max' ? added.value > held.value : added.value < held.value) replace();
        }
        return 'recorded';
      }
      case 'Mean':
      case 'Stdev': {
        if (incremental) return 'passed';
        // Other absolute values are taken and left out, as in Vector.
        const metric = decode();
        if (metric.value.type === 'gauge') {
          const list = gauges.get(key) ?? [];
          list.push(newEntry(metric, metadata, ticket));
          gauges.set(key, list);
        }
        return 'recorded';
      }
    }
  }

  /** Vector's `Aggregate::flush_into`: every series held, then forgotten (`Diff` remembers their values). */
  function flush(releases: number[]): { writer: BatchWriter; tickets: Set<number>; failed: number } {
    const writer = new BatchWriter();
    const tickets = new Set<number>();
    let failed = 0;
    const emit = (metric: Metric, entry: Entry, held: Entry[] = [entry]) => {
      appendMetric(writer, entry.metadata, metric);
      for (const each of held) {
        for (const ticket of each.tickets) tickets.add(ticket);
        letGo(each, releases);
      }
    };
    const flushed = entries;
    entries = new Map();
    for (const [key, entry] of flushed) {
      const metric = structuredClone(entry.metric);
      const before = previous.get(key);
      if (mode === 'Diff' && before !== undefined && before.kind === metric.kind && !subtractMetric(metric, before))
        failed++;
      emit(metric, entry);
    }
    if (mode === 'Diff') previous = new Map([...flushed].map(([key, entry]) => [key, entry.metric]));
    const lists = gauges;
    gauges = new Map();
    for (const list of lists.values()) {
      const [first] = list;
      const sum = structuredClone(first!.metric);
      if (!list.slice(1).every((entry) => updateMetric(sum, entry.metric))) {
        failed++;
        for (const entry of list) letGo(entry, releases);
        continue;
      }
      const values = list.map((entry) => (entry.metric.value as { value: number }).value);
      const mean = (sum.value as { value: number }).value / list.length;
      const variance = values.reduce((total, value) => total + (mean - value) ** 2, 0) / list.length;
      sum.value = { type: 'gauge', value: mode === 'Mean' ? mean : Math.sqrt(variance) };
      emit(sum, first!, list);
    }
    return { writer, tickets, failed };
  }

  const counters = (recorded: number, failed: number, flushes: number) =>
    [
      { name: 'aggregate_events_recorded_total', count: recorded },
      { name: 'aggregate_failed_updates', count: failed },
      { name: 'aggregate_flushes_total', count: flushes },
    ].filter((counter) => counter.count > 0);

  return {
    process(batch) {
      const reader = new BatchReader(batch.bytes);
      const passed = new BatchWriter(reader.flags);
      const releases: number[] = [];
      let recorded = 0;
      let failed = 0;
      for (const view of reader) {
        const outcome = record(view, batch.ticket, releases);
        if (outcome === 'passed') passed.appendRaw(view.record);
        else recorded++;
        if (outcome === 'failed') failed++;
      }
      const retains = batch.ticket !== undefined && holders.has(batch.ticket);
      const result: TransformResult = {
        outputs: [
          {
            output: undefined,
            batch: { bytes: passed.finish(), count: passed.count },
            tickets: batch.ticket === undefined ? undefined : [batch.ticket],
          },
        ],
        retains,
        releases,
        counters: counters(recorded, failed, 0),
      };
      return result;
    },

    flush() {
      const releases: number[] = [];
      const { writer, tickets, failed } = flush(releases);
      return {
        outputs: [{ output: undefined, batch: { bytes: writer.finish(), count: writer.count }, tickets: [...tickets] }],
        releases,
        counters: counters(0, failed, 1),
      };
    },
  };
}
