// `aggregate`: Vector's aggregate transform. Metrics of one series (name, namespace, tags) are combined by
// `mode` over `interval_ms` and leave at each flush (the topology's periodic flush) and at shutdown: `Auto`
// sums incremental metrics and keeps the latest absolute one, `Sum` sums incremental, `Latest` keeps the
// latest absolute, `Count` counts metrics, `Diff` gives the change of an absolute metric since the last
// flush, `Max`/`Min` the extreme absolute gauge, `Mean`/`Stdev` over absolute gauges. Metrics a mode does not
// take pass through at once. A flushed metric carries the finalizers of every metric merged into it.

import { z } from 'zod';
import { ByteReader, encode, Wire } from '../../../abi/codec.js';
import { BatchReader, BatchWriter, enterField, type RecordCursor } from '../../../runtime/engine.js';
import type { TransformDefinition, TransformResult, TransformRunner } from '../component.js';
import { Timestamp, type RemapValue } from '../../../abi/values.js';
import { addNumber, appendMetric, readMetric, subtractMetric, updateMetric, type Metric } from '../support/metric.js';

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

/** The top-level fields of a metric record that `record` reads without decoding it, by their index here. */
const FIELD_KEYS = ['name', 'namespace', 'tags', 'kind', 'counter', 'gauge', 'timestamp', 'interval_ms'].map((name) =>
  Buffer.from(name),
);
const [NAME, NAMESPACE, TAGS, KIND, COUNTER, GAUGE, TIMESTAMP, INTERVAL] = FIELD_KEYS.keys();

/** Where the fields of one metric record are, found in one pass over it; reused from record to record. */
class MetricFields {
  /** The batch, and where the record's metadata and event start in it. */
  bytes: Uint8Array = new Uint8Array(0);
  /** `bytes`, to read four of them at once. */
  view = new DataView(this.bytes.buffer);
  metadataAt = 0;
  eventAt = 0;
  incremental = false;
  /** What `readNumber` read. */
  private numberType: 'counter' | 'gauge' = 'counter';
  private number = 0;
  /** Per field of FIELD_KEYS, where its value starts and ends in `bytes` (start -1: absent). */
  private readonly starts = new Int32Array(FIELD_KEYS.length);
  private readonly ends = new Int32Array(FIELD_KEYS.length);
  private readonly r = new ByteReader(this.bytes);

  read(record: RecordCursor): void {
    const bytes = record.bytes;
    if (bytes !== this.bytes) {
      this.bytes = bytes;
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    this.metadataAt = record.metadataAt;
    this.eventAt = record.eventAt;
    for (let field = 0; field < FIELD_KEYS.length; field++) this.starts[field] = -1;
    const r = this.r.reset(bytes, record.eventAt);
    if (r.u8() === Wire.Object) {
      const count = r.u32();
      r.u32(); // byte length
      for (let i = 0; i < count; i++) {
        const length = r.u32();
        const field = fieldAt(bytes, r.at, length);
        r.at += length;
        const start = r.at;
        r.skip();
        if (field >= 0) {
          this.starts[field] = start;
          this.ends[field] = r.at;
        }
      }
    }
    this.incremental = this.is(KIND, INCREMENTAL);
  }

  /** Where the field's value starts; -1 when absent. */
  at(field: number): number {
    return this.starts[field]!;
  }

  end(field: number): number {
    return this.ends[field]!;
  }

  /** Whether the field's value is encoded as `encoded`. */
  is(field: number, encoded: Uint8Array): boolean {
    const at = this.at(field);
    return at >= 0 && this.end(field) - at === encoded.length && equalAt(this.bytes, at, encoded);
  }

  /** The field's value, decoded (undefined when absent). */
  value(field: number): RemapValue | undefined {
    const at = this.at(field);
    return at < 0 ? undefined : this.r.reset(this.bytes, at).value();
  }

  /** The metric, decoded whole. */
  metric(): Metric {
    return readMetric(this.r.reset(this.bytes, this.eventAt).value());
  }

  /** Of a counter or gauge whose value is a number, what adding it to another takes (its kind, value and
   * time), read in place; undefined for other values. */
  numericPart(): Metric | undefined {
    if (!this.readNumber()) return undefined;
    const metric: Metric = {
      name: '',
      kind: this.incremental ? 'incremental' : 'absolute',
      value: { type: this.numberType, value: this.number },
    };
    const [timestamp, interval] = [this.timestamp(), this.interval()];
    if (timestamp !== undefined) metric.timestamp = timestamp;
    if (interval !== undefined) metric.interval_ms = interval;
    return metric;
  }

  /** `updateMetric(metric, this.numericPart())` without making the part; undefined when the record is not a
   * counter or gauge whose value is a number. */
  addTo(metric: Metric): boolean | undefined {
    if (!this.readNumber()) return undefined;
    return addNumber(metric, this.numberType, this.number, this.timestamp(), this.interval());
  }

  /** Reads the value of a counter or gauge into `numberType` and `number`; false when it is not a number. */
  private readNumber(): boolean {
    const field = this.at(COUNTER) >= 0 ? COUNTER : this.at(GAUGE) >= 0 ? GAUGE : undefined;
    if (field === undefined) return false;
    const r = this.r.reset(this.bytes, this.at(field));
    if (!enterField(r, VALUE_KEY)) return false;
    const tag = r.u8();
    if (tag !== Wire.Float && tag !== Wire.Int) return false;
    this.numberType = field === COUNTER ? 'counter' : 'gauge';
    this.number = tag === Wire.Float ? r.f64() : Number(r.i64());
    return true;
  }

  private timestamp(): bigint | undefined {
    const timestamp = this.value(TIMESTAMP);
    return timestamp instanceof Timestamp ? timestamp.nanos : undefined;
  }

  private interval(): number | undefined {
    const interval = this.value(INTERVAL);
    return typeof interval === 'number' || typeof interval === 'bigint' ? Number(interval) : undefined;
  }

  /** A copy of the record's metadata. */
  metadata(): Uint8Array {
    return this.bytes.slice(this.metadataAt, this.eventAt);
  }
}

/** The index in FIELD_KEYS of the key of `length` bytes at `at`; -1 for another key. The one key it can be,
 * by its length and first byte, is then checked whole. */
function fieldAt(bytes: Uint8Array, at: number, length: number): number {
  const first = bytes[at];
  let field: number;
  switch (length) {
    case 4:
      field = first === 0x6e /* n */ ? NAME : first === 0x74 /* t */ ? TAGS : KIND;
      break;
    case 5:
      field = GAUGE;
      break;
    case 7:
      field = COUNTER;
      break;
    case 9:
      field = first === 0x6e /* n */ ? NAMESPACE : TIMESTAMP;
      break;
    case 11:
      field = INTERVAL;
      break;
    default:
      return -1;
  }
  return FIELD_KEYS[field]!.length === length && equalAt(bytes, at, FIELD_KEYS[field]!) ? field : -1;
}

/** Whether `bytes` holds `key` at `at`. */
function equalAt(bytes: Uint8Array, at: number, key: Uint8Array): boolean {
  if (at + key.length > bytes.length) return false;
  for (let i = 0; i < key.length; i++) if (bytes[at + i] !== key[i]) return false;
  return true;
}

/** Stands for an absent field in a series key: not a value tag, so it never equals an encoded value. */
const MISSING = 0xff;
const SERIES_FIELDS = [NAME, NAMESPACE, TAGS];

/**
 * The series (name, namespace, tags) of metric records as map keys: the latin1 text of their encodings, absent
 * ones MISSING (a tag object's keys are sorted). A series' key is made once: records find it again by a hash
 * of those bytes, checked against the series' own, as making a key per record was most of recording one.
 * Bytes are hashed and compared four at a time.
 */
class SeriesKeys {
  private byHash = new Map<number, Array<{ own: DataView; length: number; key: string }>>();

  /** The key of the record's series; hashes are small integers, map keys that need no boxing. */
  keyOf(fields: MetricFields): string {
    let hash = 0;
    for (let i = 0; i < SERIES_FIELDS.length; i++) {
      const field = SERIES_FIELDS[i]!;
      const at = fields.at(field);
      hash = at < 0 ? mix(hash, MISSING) & 0x3fffffff : hashRange(fields.view, at, fields.end(field), hash);
    }
    const known = this.byHash.get(hash);
    if (known)
      for (let i = 0; i < known.length; i++) {
        const series = known[i]!;
        if (sameSeries(series.own, series.length, fields)) return series.key;
      }
    const own = Buffer.concat(
      SERIES_FIELDS.map((field) => {
        const at = fields.at(field);
        return at < 0 ? Buffer.from([MISSING]) : fields.bytes.subarray(at, fields.end(field));
      }),
    );
    const series = {
      own: new DataView(own.buffer, own.byteOffset, own.length),
      length: own.length,
      key: own.toString('latin1'),
    };
    if (known) known.push(series);
    else this.byHash.set(hash, [series]);
    return series.key;
  }

  /** Forgets the keys (at a flush: those of the next interval are made again). */
  clear(): void {
    this.byHash = new Map();
  }
}

const mix = (hash: number, word: number) => Math.imul(hash ^ word, 0x9e3779b1) ^ (hash >>> 15);

/** `hash` mixed with the bytes from `at` to `end`, kept a small integer (returned unboxed). */
function hashRange(view: DataView, at: number, end: number, hash: number): number {
  let i = at;
  for (; i + 4 <= end; i += 4) hash = mix(hash, view.getUint32(i, true));
  for (; i < end; i++) hash = mix(hash, view.getUint8(i));
  return hash & 0x3fffffff;
}

/** Whether a series' bytes (`length` of them: a DataView's length is a call to read) are those of the record's
 * series. */
function sameSeries(own: DataView, length: number, fields: MetricFields): boolean {
  const view = fields.view;
  let j = 0;
  for (let k = 0; k < SERIES_FIELDS.length; k++) {
    const field = SERIES_FIELDS[k]!;
    let i = fields.at(field);
    if (i < 0) {
      if (j >= length || own.getUint8(j++) !== MISSING) return false;
      continue;
    }
    const end = fields.end(field);
    if (j + end - i > length) return false;
    for (; i + 4 <= end; i += 4, j += 4) if (view.getUint32(i, true) !== own.getUint32(j, true)) return false;
    for (; i < end; i++, j++) if (view.getUint8(i) !== own.getUint8(j)) return false;
  }
  return j === length;
}

const VALUE_KEY = Buffer.from('value');
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
  /** A series' entry for the current record's `metric` (its metadata copied). */
  const newEntry = (metric: Metric, ticket: number | undefined): Entry => {
    const entry = { metric, metadata: fields.metadata(), tickets: new Set<number>() };
    hold(entry, ticket);
    return entry;
  };
  /** The current record's metric whole, or (with `numeric`) only its value and time where that is enough to
   * add it. */
  const decode = (numeric = false): Metric => (numeric ? fields.numericPart() : undefined) ?? fields.metric();
  /** The series' entry becomes the current record's metric. */
  const replace = (key: string, existing: Entry | undefined, ticket: number | undefined, releases: number[]) => {
    if (existing) letGo(existing, releases, ticket);
    entries.set(key, newEntry(decode(), ticket));
  };

  /** Where the current record's fields are. */
  const fields = new MetricFields();
  const keys = new SeriesKeys();

  /** Vector's `Aggregate::record`, for the metric at `cursor`: decoded whole only when it is kept whole. */
  function record(cursor: RecordCursor, ticket: number | undefined, releases: number[]): Recorded {
    fields.read(cursor);
    const incremental = fields.incremental;
    // Sum takes incremental metrics only, Auto and Count any, the other modes absolute ones.
    if (mode === 'Sum' ? !incremental : mode !== 'Auto' && mode !== 'Count' && incremental) return 'passed';
    const key = keys.keyOf(fields);
    const existing = entries.get(key);
    switch (mode) {
      case 'Auto':
      case 'Sum':
        if (!incremental) {
          replace(key, existing, ticket, releases);
          return 'recorded';
        }
        if (existing === undefined) entries.set(key, newEntry(decode(), ticket));
        else if (
          existing.metric.kind === 'incremental' &&
          (fields.addTo(existing.metric) ?? updateMetric(existing.metric, fields.metric()))
        )
          hold(existing, ticket);
        else {
          replace(key, existing, ticket, releases);
          return 'failed';
        }
        return 'recorded';
      case 'Latest':
      case 'Diff':
        replace(key, existing, ticket, releases);
        return 'recorded';
      case 'Count': {
        const one: Metric = { ...decode(existing !== undefined), value: { type: 'counter', value: 1 } };
        if (existing === undefined) {
          entries.set(key, newEntry(one, ticket));
          return 'recorded';
        }
        if (existing.metric.kind !== one.kind || !updateMetric(existing.metric, one)) return 'failed';
        hold(existing, ticket);
        return 'recorded';
      }
      case 'Max':
      case 'Min': {
        if (existing === undefined) {
          entries.set(key, newEntry(decode(), ticket));
          return 'recorded';
        }
        if (existing.metric.kind !== 'absolute') {
          replace(key, existing, ticket, releases);
          return 'failed';
        }
        const [held, added] = [existing.metric.value, decode(true).value];
        if (held.type === 'gauge' && added.type === 'gauge') {
          if (mode === 'Max' ? added.value > held.value : added.value < held.value)
            replace(key, existing, ticket, releases);
        }
        return 'recorded';
      }
      case 'Mean':
      case 'Stdev': {
        // Other absolute values are taken and left out, as in Vector.
        const metric = decode();
        if (metric.value.type === 'gauge') {
          const list = gauges.get(key) ?? [];
          list.push(newEntry(metric, ticket));
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
    keys.clear();
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
      for (const cursor = reader.cursor(); cursor.next(); ) {
        const outcome = record(cursor, batch.ticket, releases);
        if (outcome === 'passed') passed.appendRaw(cursor.record());
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
