// `tag_cardinality_limit`: Vector's guard against tag cardinality explosion. Each tag key (per metric with
// `tracking_scope: per_metric` or a `per_metric_limits` entry, else shared) accepts up to `value_limit`
// distinct values, remembered exactly, by 64-bit fingerprints (`exact_fingerprint`) or in a bloom filter of
// `cache_size_per_key` bytes (`probabilistic`). A metric with a value past the limit loses that tag
// (`drop_tag`) or is dropped (`drop_event`). `per_tag_limits` overrides the limit of a tag or excludes it;
// `max_tracked_keys` caps the (metric, tag) pairs tracked, pairs past it pass unchecked.

import { z } from 'zod';
import { ByteReader } from '../../../abi/codec.js';
import { BatchReader, BatchWriter, seahash } from '../../../runtime/engine.js';
import type { TransformDefinition, TransformResult, TransformRunner } from '../component.js';
import { appendMetric, readMetric, type MetricTags } from '../support/metric.js';

const DEFAULT_CACHE_SIZE = 5 * 1024;
const DROP_REASON = 'Tag value limit exceeded.';

const internalMetrics = z
  .strictObject({ include_extended_tags: z.boolean().default(false) })
  .default({ include_extended_tags: false });

const perTag = z.discriminatedUnion('mode', [
  z.strictObject({
    mode: z.literal('limit_override'),
    value_limit: z.number().int().nonnegative(),
    cache_size_per_key: z.number().int().positive().optional(),
  }),
  z.strictObject({ mode: z.literal('excluded') }),
]);

const limits = {
  value_limit: z.number().int().nonnegative().default(500),
  limit_exceeded_action: z.enum(['drop_tag', 'drop_event']).default('drop_tag'),
  cache_size_per_key: z.number().int().positive().default(DEFAULT_CACHE_SIZE),
  internal_metrics: internalMetrics,
};

const perMetric = z.strictObject({
  ...limits,
  mode: z.enum(['exact', 'exact_fingerprint', 'probabilistic', 'excluded']),
  namespace: z.string().optional(),
  per_tag_limits: z.record(z.string(), perTag).default({}),
});

/** Vector's check: a per-tag `cache_size_per_key` only means something under `probabilistic`. */
function checkCacheSizes(
  mode: string,
  tags: Record<string, z.output<typeof perTag>>,
  path: Array<string | number>,
  context: z.core.$RefinementCtx,
): void {
  if (mode === 'probabilistic') return;
  for (const [key, tag] of Object.entries(tags)) {
    if (tag.mode === 'limit_override' && tag.cache_size_per_key !== undefined)
      context.addIssue({
        code: 'custom',
        path: [...path, key, 'cache_size_per_key'],
        message: `cache_size_per_key set on per-tag entry \`${key}\` but the inherited mode is not \`probabilistic\`, where it has no effect. Remove the field or switch to \`probabilistic\` mode.`,
      });
  }
}

const options = z
  .strictObject({
    ...limits,
    mode: z.enum(['exact', 'exact_fingerprint', 'probabilistic']),
    tracking_scope: z.enum(['global', 'per_metric']).default('global'),
    max_tracked_keys: z.number().int().nonnegative().optional(),
    per_metric_limits: z.record(z.string(), perMetric).default({}),
    per_tag_limits: z.record(z.string(), perTag).default({}),
  })
  .superRefine((config, context) => {
    checkCacheSizes(config.mode, config.per_tag_limits, ['per_tag_limits'], context);
    for (const [name, metric] of Object.entries(config.per_metric_limits))
      checkCacheSizes(metric.mode, metric.per_tag_limits, ['per_metric_limits', name, 'per_tag_limits'], context);
  });

type TagCardinalityOptions = z.output<typeof options>;

type Mode = 'exact' | 'exact_fingerprint' | 'probabilistic';

/** How one tag of one metric is tracked (Vector's resolved `Inner`). */
interface Tracked {
  valueLimit: number;
  mode: Mode;
  cacheSize: number;
  extendedTags: boolean;
}
type TagSettings = Tracked | 'excluded';

type PerTag = z.output<typeof perTag>;

/** The plan is the options: they hold only plain data. */
type TagCardinalityPlan = TagCardinalityOptions;

const tagCardinalityLimit: TransformDefinition<TagCardinalityOptions, TagCardinalityPlan> = {
  kind: 'transform',
  type: 'tag_cardinality_limit',
  description: 'Limit the cardinality of tags on metrics events as a safeguard against cardinality explosion.',
  options,
  inputs: () => ['metric'],
  outputs: () => [{ name: undefined, kinds: ['metric'] }],
  prepare: async (config) => config,
  create: (plan) => createTagCardinalityLimit(plan),
};

export default tagCardinalityLimit;

/** The values accepted for one tag key. */
interface AcceptedValues {
  has(value: string): boolean;
  add(value: string): void;
  readonly size: number;
}

/** `probabilistic`: a bloom filter of `bytes` bytes, counting what it took as new. */
class BloomValues implements AcceptedValues {
  private static readonly HASHES = 4;
  private readonly bits: Uint8Array;
  size = 0;

  constructor(bytes: number) {
    this.bits = new Uint8Array(bytes);
  }

  has(value: string): boolean {
    return this.positions(value).every((bit) => (this.bits[bit >> 3]! & (1 << (bit & 7))) !== 0);
  }

  add(value: string): void {
    if (this.has(value)) return;
    for (const bit of this.positions(value)) this.bits[bit >> 3]! |= 1 << (bit & 7);
    this.size++;
  }

  /** Double hashing from the two halves of one 64-bit hash. */
  private positions(value: string): number[] {
    const hash = seahash(Buffer.from(value));
    const [h1, h2] = [Number(hash & 0xffffffffn), Number(hash >> 32n) | 1];
    const total = this.bits.length * 8;
    return Array.from({ length: BloomValues.HASHES }, (_, i) => (h1 + i * h2) % total);
  }
}

/** `exact_fingerprint`: 64-bit hashes of the values, salted per set as Vector seeds each one. */
class FingerprintValues implements AcceptedValues {
  private readonly fingerprints = new Set<bigint>();
  private readonly salt = String(Math.random());

  has(value: string): boolean {
    return this.fingerprints.has(this.fingerprint(value));
  }

  add(value: string): void {
    this.fingerprints.add(this.fingerprint(value));
  }

  get size(): number {
    return this.fingerprints.size;
  }

  private fingerprint(value: string): bigint {
    return seahash(Buffer.from(this.salt + value));
  }
}

function acceptedValues(settings: Tracked): AcceptedValues {
  if (settings.mode === 'exact') return new Set<string>();
  if (settings.mode === 'exact_fingerprint') return new FingerprintValues();
  return new BloomValues(settings.cacheSize);
}

/** A tag's whole value (Vector's `TagValueSet`) as a key: several values compare as a set. */
function valueKey(value: MetricTags[string]): string {
  return JSON.stringify(Array.isArray(value) ? [...value].sort() : value);
}

type Counters = NonNullable<TransformResult['counters']>;

export function createTagCardinalityLimit(plan: TagCardinalityPlan): TransformRunner {
  /** Per metric bucket (a metric's key, or '' for the shared one), per tag key, the values accepted. */
  const accepted = new Map<string, Map<string, AcceptedValues>>();
  let trackedKeys = 0;

  const perMetricOf = (name: string, namespace: string | undefined) => {
    const config = plan.per_metric_limits[name];
    return config !== undefined && (config.namespace === undefined || config.namespace === namespace)
      ? config
      : undefined;
  };

  const withTag = (base: Tracked, tag: PerTag | undefined): TagSettings => {
    if (tag === undefined) return base;
    if (tag.mode === 'excluded') return 'excluded';
    return { ...base, valueLimit: tag.value_limit, cacheSize: tag.cache_size_per_key ?? base.cacheSize };
  };

  const global: Tracked = {
    valueLimit: plan.value_limit,
    mode: plan.mode,
    cacheSize: plan.cache_size_per_key,
    extendedTags: plan.internal_metrics.include_extended_tags,
  };

  /** Vector's `get_config_for_metric_tag`: a per-metric entry (and its per-tag ones) over the global ones. */
  function settingsOf(metric: ReturnType<typeof perMetricOf>, tag: string): TagSettings {
    if (metric === undefined) return withTag(global, plan.per_tag_limits[tag]);
    if (metric.mode === 'excluded') return 'excluded';
    const base: Tracked = {
      valueLimit: metric.value_limit,
      mode: metric.mode,
      cacheSize: metric.cache_size_per_key,
      extendedTags: metric.internal_metrics.include_extended_tags,
    };
    return withTag(base, metric.per_tag_limits[tag]);
  }

  const canTrackMore = () => plan.max_tracked_keys === undefined || trackedKeys < plan.max_tracked_keys;

  return {
    process(batch) {
      const reader = new BatchReader(batch.bytes);
      const out = new BatchWriter(reader.flags);
      const counters: Counters = [];
      const count = (name: string, tags?: Record<string, string>) => {
        const key = JSON.stringify(tags ?? {});
        const counter = counters.find((each) => each.name === name && JSON.stringify(each.tags ?? {}) === key);
        if (counter) counter.count++;
        else counters.push(tags ? { name, count: 1, tags } : { name, count: 1 });
      };
      const startKeys = trackedKeys;
      let dropped = 0;

      for (const view of reader) {
        const metric = readMetric(new ByteReader(view.event).value());
        const tags = metric.tags;
        if (tags === undefined || Object.keys(tags).length === 0) {
          out.appendRaw(view.record);
          continue;
        }
        const perMetric = perMetricOf(metric.name, metric.namespace);
        const bucket =
          plan.tracking_scope === 'per_metric' || perMetric !== undefined
            ? JSON.stringify([metric.namespace ?? null, metric.name])
            : '';
        const values = accepted.get(bucket) ?? new Map<string, AcceptedValues>();
        accepted.set(bucket, values);
        const exceeded = (settings: Tracked, tag: string) =>
          count(
            'tag_value_limit_exceeded_total',
            settings.extendedTags ? { metric_name: metric.name, tag_key: tag } : undefined,
          );
        /** The set of a tracked tag key, made when the cap allows; undefined when it is untracked. */
        const setOf = (tag: string, settings: Tracked): AcceptedValues | undefined => {
          let set = values.get(tag);
          if (set === undefined) {
            if (!canTrackMore()) return undefined;
            set = acceptedValues(settings);
            values.set(tag, set);
            trackedKeys++;
          }
          return set;
        };
        let untracked = false;
        const action = perMetric?.limit_exceeded_action ?? plan.limit_exceeded_action;

        if (action === 'drop_event') {
          // Every tag is checked before any is recorded, so that tag order does not matter.
          const rejected = Object.entries(tags).some(([tag, value]) => {
            const settings = settingsOf(perMetric, tag);
            if (settings === 'excluded') return false;
            const set = values.get(tag);
            const over =
              set === undefined
                ? settings.valueLimit === 0 && canTrackMore()
                : !set.has(valueKey(value)) && set.size >= settings.valueLimit;
            if (over) exceeded(settings, tag);
            return over;
          });
          if (rejected) {
            dropped++;
            continue;
          }
          for (const [tag, value] of Object.entries(tags)) {
            const settings = settingsOf(perMetric, tag);
            if (settings === 'excluded') continue;
            const set = setOf(tag, settings);
            if (set === undefined) untracked = true;
            else set.add(valueKey(value));
          }
          if (untracked) count('tag_cardinality_untracked_events_total');
          out.appendRaw(view.record);
          continue;
        }

        let changed = false;
        for (const [tag, value] of Object.entries(tags)) {
          const settings = settingsOf(perMetric, tag);
          if (settings === 'excluded') continue;
          const set = setOf(tag, settings);
          if (set === undefined) {
            untracked = true;
            continue;
          }
          const key = valueKey(value);
          if (set.has(key)) continue;
          if (set.size < settings.valueLimit) {
            set.add(key);
            if (set.size === settings.valueLimit) count('value_limit_reached_total');
            continue;
          }
          exceeded(settings, tag);
          delete tags[tag];
          changed = true;
        }
        if (untracked) count('tag_cardinality_untracked_events_total');
        if (changed) appendMetric(out, view.metadata, metric);
        else out.appendRaw(view.record);
      }

      return {
        outputs: [{ output: undefined, batch: { bytes: out.finish(), count: out.count } }],
        discarded: dropped > 0 ? [{ count: dropped, intentional: true, reason: DROP_REASON }] : [],
        counters,
        gauges: trackedKeys !== startKeys ? [{ name: 'tag_cardinality_tracked_keys', value: trackedKeys }] : [],
      };
    },
  };
}
