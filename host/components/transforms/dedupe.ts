// `dedupe`: discards an event when an event with the same values of the matched fields (or of all fields
// but the ignored ones) is among the last `cache.num_events` distinct ones seen (an LRU cache), optionally
// only for `time_settings.max_age_ms`. Values are compared by their exact encoding: `1` and `1.0` differ,
// and a field set to null differs from a missing one, as in Vector.

import { z } from 'zod';
import { BatchReader, BatchWriter, withoutField, type RecordCursor } from '../../../runtime/engine.js';
import { parseFieldPath, valuePath } from '../../config/template.js';
import type { TransformDefinition, TransformRunner } from '../component.js';
import { monotonicClock, type Clock } from '../support/clock.js';

const REASON = 'Events have been found in cache for deduplication.';

const options = z.strictObject({
  fields: z
    .union([z.strictObject({ match: z.array(z.string()) }), z.strictObject({ ignore: z.array(z.string()) })])
    .optional(),
  cache: z.strictObject({ num_events: z.number().int().positive().default(5000) }).default({ num_events: 5000 }),
  time_settings: z
    .strictObject({ max_age_ms: z.number().int().nonnegative(), refresh_on_drop: z.boolean().default(false) })
    .optional(),
});

type DedupeOptions = z.output<typeof options>;

interface DedupePlan {
  /** Paths compared (`match`), or left out of the comparison (`ignore`). */
  fields: { match: Array<Array<string | number>> } | { ignore: string[][] };
  capacity: number;
  maxAgeMs: number | undefined;
  refreshOnDrop: boolean;
}

const dedupe: TransformDefinition<DedupeOptions, DedupePlan> = {
  kind: 'transform',
  type: 'dedupe',
  description: 'Deduplicates events to reduce data volume by eliminating copies of data.',
  options,
  inputs: () => ['log'],
  outputs: () => [{ name: undefined, kinds: ['log'] }],
  async prepare(config, env) {
    const { timestamp_key, host_key, message_key } = env.globals.log_schema;
    const spec = config.fields ?? { match: [timestamp_key, host_key, message_key].filter((key) => key !== '') };
    const paths = (texts: string[]) =>
      texts.map((text) => {
        const path = parseFieldPath(text);
        if (path.metadata) throw new Error(`fields: "${text}" is a metadata path; dedupe compares event fields`);
        return valuePath(path.segments);
      });
    const fields =
      'match' in spec
        ? { match: paths(spec.match) }
        : {
            ignore: paths(spec.ignore).map((path) => {
              if (path.some((segment) => typeof segment === 'number'))
                throw new Error('fields.ignore: paths with array indexes are not supported');
              return path as string[];
            }),
          };
    return {
      fields,
      capacity: config.cache.num_events,
      maxAgeMs: config.time_settings?.max_age_ms,
      refreshOnDrop: config.time_settings?.refresh_on_drop ?? false,
    };
  },
  create: (plan) => createDedupe(plan, monotonicClock),
};

export default dedupe;

/** The runner, on a given clock (tests drive a fake one). */
export function createDedupe(plan: DedupePlan, now: Clock): TransformRunner {
  /** Cache keys → when last stored; Map order is the LRU order (oldest first). */
  const cache = new Map<string, number>();
  // The oldest entry comes from one iterator kept across evictions: a fresh `keys()` each time scanned the
  // entries deleted at the front of V8's table until its next rehash (300k events past a 5000-entry cache:
  // ~1 s of the run).
  let oldest = cache.keys();
  const evictOldest = () => {
    let next = oldest.next();
    if (next.done) {
      oldest = cache.keys();
      next = oldest.next();
    }
    cache.delete(next.value!);
  };
  const keyOf = (reader: BatchReader, cursor: RecordCursor): string => {
    if ('match' in plan.fields) return reader.encodedKey(cursor.bytes, plan.fields.match, cursor.eventAt);
    return Buffer.from(plan.fields.ignore.reduce(withoutField, cursor.event())).toString('latin1');
  };
  return {
    process(batch) {
      const time = now();
      const reader = new BatchReader(batch.bytes);
      const kept = new BatchWriter(reader.flags);
      for (const cursor = reader.cursor(); cursor.next(); ) {
        const key = keyOf(reader, cursor);
        const stored = cache.get(key);
        const duplicate = stored !== undefined && (plan.maxAgeMs === undefined || time - stored < plan.maxAgeMs);
        cache.delete(key);
        cache.set(key, duplicate && !plan.refreshOnDrop ? stored! : time);
        if (cache.size > plan.capacity) evictOldest();
        if (!duplicate) kept.appendRaw(cursor.record());
      }
      const dropped = batch.count - kept.count;
      return {
        outputs: [{ output: undefined, batch: { bytes: kept.finish(), count: kept.count } }],
        discarded: dropped > 0 ? [{ count: dropped, intentional: true, reason: REASON }] : [],
      };
    },
  };
}
