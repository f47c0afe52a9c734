// `sample`: forwards 1 event in `rate` (or a `ratio` of them) and discards the rest, counting per
// `group_by` bucket; with `key_field` the decision is a hash of the field's value (SeaHash, as Vector), so
// all events with one value are kept or dropped together. Kept events get the rate at `sample_rate_key`.

import { z } from 'zod';
import { BatchReader, BatchWriter, seahash, withField } from '../../../runtime/engine.js';
import { encode } from '../../../abi/codec.js';
import { display, type RemapValue } from '../../../runtime/index.js';
import { parseFieldPath, templateOption, valuePath, type PathSegment } from '../../config/template.js';
import type { EventKind } from '../../topology/batch.js';
import type { TransformDefinition, TransformResult } from '../component.js';
import {
  Condition,
  conditionErrors,
  conditionSchema,
  isSet,
  prepareCondition,
  type ConditionPlan,
} from '../support/condition.js';
import { RemapLogs } from '../support/remap-program.js';
import { prepareTemplate, Template, type TemplatePlan } from '../support/template.js';

const KINDS: EventKind[] = ['log', 'trace'];
const REASON = 'Sample discarded.';
const VECTOR_METADATA = ['vector'];

/** A path option: Vector's field path syntax, fields and indexes. */
const pathOption = z.string().superRefine((text, context) => {
  try {
    parseFieldPath(text);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

const options = z
  .strictObject({
    rate: z.number().int().positive().optional(),
    ratio: z.number().gt(0, 'must be greater than 0').lte(1, 'must be at most 1').optional(),
    key_field: pathOption.optional(),
    group_by: templateOption().optional(),
    exclude: conditionSchema.optional(),
    sample_rate_key: pathOption.default('sample_rate'),
  })
  .superRefine((config, context) => {
    if ((config.rate === undefined) === (config.ratio === undefined)) {
      context.addIssue({ code: 'custom', message: 'exactly one of `rate` or `ratio` must be set' });
    }
    if (
      config.sample_rate_key !== '' &&
      parseFieldPath(config.sample_rate_key).segments.some((segment) => 'index' in segment)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['sample_rate_key'],
        message: 'must be a path of fields (no array index)',
      });
    }
  });

type SampleOptions = z.output<typeof options>;

interface SamplePlan {
  mode: { rate: number } | { ratio: number };
  keyField: PathSegment[] | undefined;
  groupBy: TemplatePlan | undefined;
  exclude: ConditionPlan | undefined;
  /** Where kept events get the rate (event fields); none when `sample_rate_key` is empty. */
  rateField: string[] | undefined;
}

const sample: TransformDefinition<SampleOptions, SamplePlan> = {
  kind: 'transform',
  type: 'sample',
  description: 'Samples events at a configurable rate.',
  options,
  inputs: () => KINDS,
  outputs: () => [{ name: undefined, kinds: KINDS }],
  async prepare(config, env) {
    const [groupBy, exclude] = await Promise.all([
      config.group_by === undefined ? undefined : prepareTemplate(config.group_by, env, 'group_by'),
      config.exclude === undefined ? undefined : prepareCondition(config.exclude, env, 'exclude'),
    ]);
    const fields = (text: string) =>
      parseFieldPath(text).segments.map((segment) => (segment as { field: string }).field);
    return {
      mode: config.rate !== undefined ? { rate: config.rate } : { ratio: config.ratio! },
      keyField: config.key_field === undefined ? undefined : parseFieldPath(config.key_field).segments,
      groupBy,
      exclude,
      rateField: config.sample_rate_key === '' ? undefined : fields(config.sample_rate_key),
    };
  },
  async create(plan) {
    const logs = new RemapLogs();
    const groupBy = plan.groupBy && (await Template.create(plan.groupBy, logs));
    const exclude = plan.exclude && (await Condition.create(plan.exclude, logs));
    const keyPath = plan.keyField && valuePath(plan.keyField);
    const counters = new Map<string | undefined, number>();
    const rateValue = encode('rate' in plan.mode ? String(plan.mode.rate) : String(plan.mode.ratio));
    const keeps = keepRule(plan.mode);
    return {
      process(batch) {
        const errors: NonNullable<TransformResult['errors']> = [];
        const excluded = exclude?.evaluate(batch.bytes);
        if (excluded) errors.push(...conditionErrors(excluded.failures));
        const groups = groupBy?.render(batch.bytes, batch.count);
        if (groups) errors.push(...groups.errors);
        const reader = new BatchReader(batch.bytes);
        const kept = new BatchWriter(reader.flags);
        for (const { index, record, kind, metadata, event } of reader) {
          if (excluded && isSet(excluded.bits, index)) {
            kept.appendRaw(record);
            continue;
          }
          const group = groups?.values[index];
          const counter = counters.get(group) ?? 0;
          counters.set(group, counter + 1);
          const value = keyPath && reader.readPath(event, keyPath);
          const hash = value === undefined ? undefined : seahash(Buffer.from(lossyString(value), 'utf8'));
          if (!keeps(counter, hash)) continue;
          if (!plan.rateField) kept.appendRaw(record);
          // Vector's namespace (the metadata has `vector`) has the rate in `%sample.<sample_rate_key>`.
          else if (reader.readPathEncoded(metadata, VECTOR_METADATA) !== undefined)
            kept.appendEncoded(kind, withField(metadata, ['sample', ...plan.rateField], rateValue), event);
          else kept.appendEncoded(kind, metadata, withField(event, plan.rateField, rateValue));
        }
        const dropped = batch.count - kept.count;
        return {
          outputs: [{ output: undefined, batch: { bytes: kept.finish(), count: kept.count } }],
          discarded: dropped > 0 ? [{ count: dropped, intentional: true, reason: REASON }] : [],
          errors,
          logs: logs.take(),
        };
      },
    };
  },
};

export default sample;

/**
 * Whether the event is kept, by its group's counter (0 for the group's first event) or, when it has a key,
 * by the key's hash: `rate` keeps every rate-th event (the first of each run) or hashes divisible by it;
 * `ratio` keeps the events that raise ⌈count × ratio⌉, or hashes in the lowest `ratio` of the range.
 */
function keepRule(mode: SamplePlan['mode']): (counter: number, hash: bigint | undefined) => boolean {
  if ('rate' in mode) {
    const rate = BigInt(mode.rate);
    return (counter, hash) => (hash === undefined ? counter % mode.rate === 0 : hash % rate === 0n);
  }
  const { ratio } = mode;
  const limit = BigInt(Math.min(ratio * 2 ** 64, 2 ** 64));
  return (counter, hash) =>
    hash === undefined ? Math.ceil((counter + 1) * ratio) > Math.ceil(counter * ratio) : hash < limit;
}

/** Vector's `to_string_lossy` of a value: strings as they are, other values as remap displays them. */
function lossyString(value: RemapValue): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  return display(value);
}
