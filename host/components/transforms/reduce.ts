// `reduce`: merges consecutive log events with the same `group_by` values into one, field by field
// (reduce-merge.ts: `merge_strategies`, else by the value's type). A group is flushed when `ends_when` holds
// for an event (with it), when `starts_when` holds (without it: it starts the next group), when it reaches
// `max_events`, when it was not updated for `expire_after_ms` or began `end_every_period_ms` ago (checked
// every `flush_period_ms`), and at shutdown. As Vector's reduce, the event it emits carries no metadata but
// the fields `merge_strategies` name there, and the finalizers of every event merged into it.

import { z } from 'zod';
import { BatchReader, BatchWriter, compareInPlace, type RecordCursor } from '../../../runtime/engine.js';
import { ByteReader, ByteWriter, EMPTY_OBJECT, keyText, Wire } from '../../../abi/codec.js';
import { parseFieldPath, remapPath, valuePath } from '../../config/template.js';
import type { TransformDefinition, TransformResult, TransformRunner } from '../component.js';
import {
  Condition,
  conditionErrors,
  conditionSchema,
  isSet,
  prepareCondition,
  type ConditionPlan,
} from '../support/condition.js';
import { RemapLogs } from '../support/remap-program.js';
import { monotonicClock, type Clock } from '../support/clock.js';
import { createMerger, MERGE_STRATEGIES, type MergeStrategy, type ValueMerger } from './reduce-merge.js';

/** A path option: Vector's target path syntax (`%` for metadata). */
const pathOption = z.string().superRefine((text, context) => {
  try {
    parseFieldPath(text);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

const options = z
  .strictObject({
    expire_after_ms: z.number().int().nonnegative().default(30000),
    end_every_period_ms: z.number().int().nonnegative().optional(),
    flush_period_ms: z.number().int().positive().default(1000),
    max_events: z.number().int().positive().optional(),
    group_by: z.array(pathOption).default([]),
    merge_strategies: z.record(z.string(), z.enum(MERGE_STRATEGIES)).default({}),
    ends_when: conditionSchema.optional(),
    starts_when: conditionSchema.optional(),
  })
  .superRefine((config, context) => {
    if (config.ends_when !== undefined && config.starts_when !== undefined) {
      context.addIssue({ code: 'custom', message: 'only one of `ends_when` and `starts_when` can be provided' });
    }
    for (const path of Object.keys(config.merge_strategies)) {
      const issue = (message: string) =>
        context.addIssue({ code: 'custom', path: ['merge_strategies', path], message });
      try {
        const { segments } = parseFieldPath(path);
        if (segments.length === 0) issue('must name a field');
        else if (segments.some((segment) => 'index' in segment))
          issue(`Merge strategies with indexes are currently not supported. Path: \`${path}\``);
      } catch (error) {
        issue((error as Error).message);
      }
    }
  });

type ReduceOptions = z.output<typeof options>;

/** A path into the event, or into its metadata. */
interface TargetPath {
  metadata: boolean;
  path: Array<string | number>;
}

interface ReducePlan {
  expireAfterMs: number;
  endEveryPeriodMs: number | undefined;
  maxEvents: number | undefined;
  groupBy: TargetPath[];
  strategies: Array<{ metadata: boolean; path: string[]; strategy: MergeStrategy }>;
  startsWhen: ConditionPlan | undefined;
  endsWhen: ConditionPlan | undefined;
}

const reduce: TransformDefinition<ReduceOptions, ReducePlan> = {
  kind: 'transform',
  type: 'reduce',
  description: 'Collapse multiple log events into a single event based on a set of conditions and merge strategies.',
  options,
  inputs: () => ['log'],
  outputs: () => [{ name: undefined, kinds: ['log'] }],
  flushPeriodMs: (config) => config.flush_period_ms,
  async prepare(config, env) {
    const [startsWhen, endsWhen] = await Promise.all([
      config.starts_when === undefined ? undefined : prepareCondition(config.starts_when, env, 'starts_when'),
      config.ends_when === undefined ? undefined : prepareCondition(config.ends_when, env, 'ends_when'),
    ]);
    const target = (text: string): TargetPath => {
      const { metadata, segments } = parseFieldPath(text);
      return { metadata, path: valuePath(segments) };
    };
    return {
      expireAfterMs: config.expire_after_ms,
      endEveryPeriodMs: config.end_every_period_ms,
      maxEvents: config.max_events,
      groupBy: config.group_by.map(target),
      // The schema refused indexes: field names only.
      strategies: Object.entries(config.merge_strategies).map(([text, strategy]) => {
        const { metadata, path } = target(text);
        return { metadata, path: path as string[], strategy };
      }),
      startsWhen,
      endsWhen,
    };
  },
  create: (plan) => createReduce(plan, monotonicClock),
};

export default reduce;

/** One merged field of a group. */
interface MergedField {
  metadata: boolean;
  path: string[];
  merger: ValueMerger;
}

/** Vector's ReduceState: a group's merged fields so far. */
interface Group {
  events: number;
  /** By `fieldKey`, in the order first seen. */
  fields: Map<string, MergedField>;
  /** When it last took an event, and when it began (the runner's clock). */
  staleSince: number;
  creation: number;
  /** The input batches (`EventBatch.ticket`) whose events it holds. */
  tickets: Set<number>;
}

/** A field's key among a group's fields: its segments, each after its length (so any name is unambiguous). */
const segmentKey = (name: string) => `${name.length}:${name}`;
const fieldKey = (metadata: boolean, path: readonly string[]) => (metadata ? '%' : '.') + path.map(segmentKey).join('');

/** The runner, on a given clock (tests drive a fake one). */
export async function createReduce(plan: ReducePlan, now: Clock): Promise<TransformRunner> {
  const logs = new RemapLogs();
  const startsWhen = plan.startsWhen && (await Condition.create(plan.startsWhen, logs));
  const endsWhen = plan.endsWhen && (await Condition.create(plan.endsWhen, logs));
  /** By group key, in the order they began. */
  const groups = new Map<string, Group>();
  /** Per ticket, how many groups hold events of its batch. */
  const holders = new Map<number, number>();
  /** Event paths a strategy covers: a field under one is merged by it, not on its own. */
  const strategyPaths = new Set(plan.strategies.filter((s) => !s.metadata).map((s) => fieldKey(false, s.path)));
  const strategies = plan.strategies.map((s) => ({ ...s, key: fieldKey(s.metadata, s.path) }));
  const names = new FieldNameCache(strategyPaths);
  const fieldReader = new ByteReader(new Uint8Array(0));
  const groupBy = plan.groupBy.map(({ metadata, path }) => ({ metadata, paths: [path] }));

  const keyOf = (reader: BatchReader, cursor: RecordCursor): string => {
    let key = '';
    for (const { metadata, paths } of groupBy) {
      key += reader.encodedKey(cursor.bytes, paths, metadata ? cursor.metadataAt : cursor.eventAt);
    }
    return key;
  };

  /** What one call emits: the flushed groups as one batch, and the tickets it settles. */
  class Emitted {
    readonly writer = new BatchWriter();
    readonly tickets = new Set<number>();
    readonly releases: number[] = [];
    readonly warnings: NonNullable<TransformResult['warnings']> = [];

    /** `current`: the ticket of the input batch being processed, if any. */
    constructor(private readonly current?: number) {}

    /** Vector's `ReduceState::add_event`, for an event of the current input batch. */
    add(group: Group, reader: BatchReader, cursor: RecordCursor, time: number): void {
      const bytes = cursor.bytes;
      for (const { metadata, path, key, strategy } of strategies) {
        const start = reader.findEncoded(bytes, path, metadata ? cursor.metadataAt : cursor.eventAt);
        if (start >= 0) this.merge(group, key, metadata, path, bytes, start, reader.foundEnd, strategy);
      }
      // Vector's `all_event_fields_skip_array_elements`: objects are walked into, anything else (arrays
      // whole, empty objects) is a field; an event that is not an object has none.
      if (bytes[cursor.eventAt] === Wire.Object)
        this.mergeObject(group, fieldReader.reset(bytes, cursor.eventAt), names.top());
      group.events++;
      group.staleSince = time;
      const ticket = this.current;
      if (ticket !== undefined && !group.tickets.has(ticket)) {
        group.tickets.add(ticket);
        holders.set(ticket, (holders.get(ticket) ?? 0) + 1);
      }
    }

    /** The fields of the object at `r` not under a strategy's path, each merged on its own. */
    private mergeObject(group: Group, r: ByteReader, known: FieldNames): void {
      const bytes = r.bytes;
      r.u8(); // the object tag
      const count = r.u32();
      r.u32(); // byte length
      for (let i = 0; i < count; i++) {
        const length = r.u32();
        const name = known.find(bytes, r.at, length, i);
        r.at += length;
        const start = r.at;
        if (name.covered) r.skip();
        else if (bytes[start] === Wire.Object && r.view.getUint32(start + 1, true) > 0) {
          this.mergeObject(group, r, known.below(name));
        } else {
          r.skip();
          this.merge(group, name.key, false, name.path, bytes, start, r.at);
        }
      }
    }

    /** Merges the value encoded in `source` [start, end) into the group's field `key`. */
    private merge(
      group: Group,
      key: string,
      metadata: boolean,
      path: string[],
      source: Uint8Array,
      start: number,
      end: number,
      strategy?: MergeStrategy,
    ): void {
      const field = group.fields.get(key);
      if (field !== undefined) {
        const error = field.merger.add(source, start, end);
        if (error !== undefined) this.warnings.push({ message: 'Failed to merge value.', fields: { error } });
        return;
      }
      const merger = createMerger(source.subarray(start, end), strategy);
      if (typeof merger === 'string') {
        const fields = { error: merger, path: remapPath({ metadata, segments: path.map((field) => ({ field })) }) };
        this.warnings.push({ message: 'Failed to create value merger.', fields });
      } else group.fields.set(key, { metadata, path, merger });
    }

    /** Vector's `ReduceState::flush`: the merged event, which holds the group's tickets. */
    flush(group: Group): void {
      const event = new FieldTree();
      const metadata = new FieldTree();
      for (const { metadata: inMetadata, path, merger } of group.fields.values()) {
        const { value, end } = merger.finish();
        const tree = inMetadata ? metadata : event;
        if (end !== undefined) tree.insert([...path.slice(0, -1), `${path.at(-1)}_end`], end);
        tree.insert(path, value);
      }
      this.writer.appendEncoded('log', metadata.encode(), event.encode());
      for (const ticket of group.tickets) {
        this.tickets.add(ticket);
        const left = holders.get(ticket)! - 1;
        if (left > 0) holders.set(ticket, left);
        else {
          holders.delete(ticket);
          if (ticket !== this.current) this.releases.push(ticket);
        }
      }
    }

    result(extra: Partial<TransformResult> = {}): TransformResult {
      const batch = { bytes: this.writer.finish(), count: this.writer.count };
      return {
        outputs: [{ output: undefined, batch, tickets: [...this.tickets] }],
        releases: this.releases,
        warnings: this.warnings,
        ...extra,
      };
    }
  }

  const newGroup = (time: number): Group => ({
    events: 0,
    fields: new Map(),
    staleSince: time,
    creation: time,
    tickets: new Set(),
  });

  return {
    process(batch) {
      const time = now();
      const errors: NonNullable<TransformResult['errors']> = [];
      const starts = startsWhen?.evaluate(batch.bytes);
      const ends = endsWhen?.evaluate(batch.bytes);
      for (const evaluated of [starts, ends]) if (evaluated) errors.push(...conditionErrors(evaluated.failures));
      const emitted = new Emitted(batch.ticket);
      const reader = new BatchReader(batch.bytes);
      for (const cursor = reader.cursor(); cursor.next(); ) {
        const startsHere = starts !== undefined && isSet(starts.bits, cursor.index);
        let endsHere = ends !== undefined && isSet(ends.bits, cursor.index);
        const key = keyOf(reader, cursor);
        let group = groups.get(key);
        // The event that makes `max_events` ends its group.
        if (plan.maxEvents === 1 || (group !== undefined && group.events + 1 === plan.maxEvents)) endsHere = true;
        if (startsHere && group !== undefined) {
          groups.delete(key);
          emitted.flush(group);
          group = undefined;
        }
        if (group === undefined) {
          group = newGroup(time);
          groups.set(key, group);
        }
        emitted.add(group, reader, cursor, time);
        if (endsHere && !startsHere) {
          groups.delete(key);
          emitted.flush(group);
        }
      }
      const retains = batch.ticket !== undefined && holders.has(batch.ticket);
      return emitted.result({ retains, errors, logs: logs.take() });
    },

    flush(ended) {
      const time = now();
      const emitted = new Emitted();
      let stale = 0;
      for (const [key, group] of groups) {
        const due =
          time - group.staleSince >= plan.expireAfterMs ||
          (plan.endEveryPeriodMs !== undefined && time - group.creation >= plan.endEveryPeriodMs);
        if (!ended && !due) continue;
        groups.delete(key);
        emitted.flush(group);
        if (!ended) stale++;
      }
      return emitted.result({ counters: stale > 0 ? [{ name: 'stale_events_flushed_total', count: stale }] : [] });
    },
  };
}

/** A field name met under one object path, with what reduce keeps of it. */
interface FieldName {
  /** The name's UTF-8. */
  utf8: Uint8Array;
  /** Its `fieldKey` and path. */
  key: string;
  path: string[];
  /** Whether a strategy merges it (or a field above it). */
  covered: boolean;
  /** The names met in the object it held. */
  under: FieldNames | undefined;
}

/**
 * The field names met under one object path, found by their bytes without decoding them: events of a stream
 * mostly have the same fields in the same order, so a name is looked for first where the last object had it.
 */
class FieldNames {
  private readonly byHash = new Map<number, FieldName[]>();
  private readonly order: FieldName[] = [];

  constructor(
    private readonly cache: FieldNameCache,
    private readonly key: string,
    private readonly path: string[],
  ) {}

  /** The name whose UTF-8 is `bytes` [at, at + length), field `position` of its object. */
  find(bytes: Uint8Array, at: number, length: number, position: number): FieldName {
    const guess = this.order[position];
    if (guess !== undefined && compareInPlace(bytes, at, length, guess.utf8) === 0) return guess;
    let hash = 0x811c9dc5;
    for (let i = at; i < at + length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
    let bucket = this.byHash.get(hash);
    let found = bucket?.find((name) => compareInPlace(bytes, at, length, name.utf8) === 0);
    if (found === undefined) {
      const utf8 = bytes.slice(at, at + length);
      const text = keyText(utf8);
      const key = this.key + segmentKey(text);
      found = { utf8, key, path: [...this.path, text], covered: this.cache.covered.has(key), under: undefined };
      if (bucket === undefined) this.byHash.set(hash, (bucket = []));
      bucket.push(found);
      this.cache.made++;
    }
    this.order[position] = found;
    return found;
  }

  /** The names under a name of this object. */
  below(name: FieldName): FieldNames {
    name.under ??= new FieldNames(this.cache, name.key, name.path);
    return name.under;
  }
}

/** The field names of a reduce's events, from the top level down; started over once more than
 * `MAX_FIELD_NAMES` were made, for events whose keys are data. */
class FieldNameCache {
  made = 0;
  private root: FieldNames = new FieldNames(this, '.', []);

  /** `covered`: the event paths (`fieldKey`) a strategy merges. */
  constructor(readonly covered: ReadonlySet<string>) {}

  /** The names at the top level of an event about to be walked. */
  top(): FieldNames {
    if (this.made > MAX_FIELD_NAMES) {
      this.made = 0;
      this.root = new FieldNames(this, '.', []);
    }
    return this.root;
  }
}

/** How many field names a reduce keeps before it starts over. */
const MAX_FIELD_NAMES = 10_000;

/** A value built field by field, as Vector inserts into an event: objects on the way are created, and a value
 * on the way that is not an object is replaced by one. */
class FieldTree {
  private readonly root = new Map<string, FieldTree | Uint8Array>();

  insert(path: readonly string[], value: Uint8Array): void {
    const [first, ...rest] = path;
    if (rest.length === 0) {
      this.root.set(first!, value);
      return;
    }
    let child = this.root.get(first!);
    if (!(child instanceof FieldTree)) {
      child = new FieldTree();
      this.root.set(first!, child);
    }
    child.insert(rest, value);
  }

  encode(): Uint8Array {
    if (this.root.size === 0) return EMPTY_OBJECT;
    const w = new ByteWriter();
    this.write(w);
    return w.finish();
  }

  private write(w: ByteWriter): void {
    // Keys sorted by their UTF-8 bytes (docs/abi.md §1).
    const entries = [...this.root].map(([key, value]) => [Buffer.from(key, 'utf8'), value] as const);
    entries.sort(([a], [b]) => Buffer.compare(a, b));
    w.u8(Wire.Object);
    w.u32(entries.length);
    const lengthAt = w.reserve(4);
    for (const [key, value] of entries) {
      w.sized(key);
      if (value instanceof FieldTree) value.write(w);
      else w.raw(value);
    }
    w.view.setUint32(lengthAt, w.length - lengthAt - 4, true);
  }
}
