// `throttle`: rate limits log events per bucket (spec 2) with the generic cell rate algorithm. A bucket
// holds at most `threshold` cells; an event takes one or is discarded; a cell comes back every
// `window_secs / threshold` seconds. Buckets are keyed by the rendered `key_field` template; events
// without a key share one bucket, and events matching `exclude` pass untouched.

import { z } from 'zod';
import { BatchReader, BatchWriter } from '../../../runtime/engine.js';
import { templateOption } from '../../config/template.js';
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
import { prepareTemplate, Template, type TemplatePlan } from '../support/template.js';
import { monotonicClock, type Clock } from '../support/clock.js';

const REASON = 'Rate limit exceeded.';
/** The `key` tag of events without a key (Vector's `None` bucket). */
const NO_KEY = 'None';

const options = z.strictObject({
  threshold: z
    .number()
    .int()
    .nonnegative()
    .refine((value) => value > 0, 'must be non-zero'),
  window_secs: z
    .number()
    .nonnegative()
    .refine((value) => value > 0, 'must be non-zero'),
  key_field: templateOption().optional(),
  exclude: conditionSchema.optional(),
  internal_metrics: z
    .strictObject({ emit_events_discarded_per_key: z.boolean().default(false) })
    .default({ emit_events_discarded_per_key: false }),
});

type ThrottleOptions = z.output<typeof options>;

interface ThrottlePlan {
  threshold: number;
  /** Milliseconds between two cells. */
  intervalMs: number;
  windowMs: number;
  key: TemplatePlan | undefined;
  exclude: ConditionPlan | undefined;
  perKeyMetric: boolean;
}

const throttle: TransformDefinition<ThrottleOptions, ThrottlePlan> = {
  kind: 'transform',
  type: 'throttle',
  description:
    'Rate limits one or more log streams to limit load on downstream services, or to enforce usage quotas on users.',
  options,
  inputs: () => ['log'],
  outputs: () => [{ name: undefined, kinds: ['log'] }],
  async prepare(config, env) {
    const [key, exclude] = await Promise.all([
      config.key_field === undefined ? undefined : prepareTemplate(config.key_field, env, 'key_field'),
      config.exclude === undefined ? undefined : prepareCondition(config.exclude, env, 'exclude'),
    ]);
    const windowMs = config.window_secs * 1000;
    return {
      threshold: config.threshold,
      intervalMs: windowMs / config.threshold,
      windowMs,
      key,
      exclude,
      perKeyMetric: config.internal_metrics.emit_events_discarded_per_key,
    };
  },
  create: (plan) => createThrottle(plan, monotonicClock),
};

export default throttle;

/** The runner, on a given clock (tests drive a fake one). */
export async function createThrottle(plan: ThrottlePlan, now: Clock): Promise<TransformRunner> {
  const logs = new RemapLogs();
  const key = plan.key && (await Template.create(plan.key, logs));
  const exclude = plan.exclude && (await Condition.create(plan.exclude, logs));
  /** Per bucket, the theoretical arrival time: the bucket is full again once the clock reaches it. */
  const arrivals = new Map<string | undefined, number>();
  /** The most a bucket's arrival time may run ahead of the clock and still let an event through. */
  const tolerance = (plan.threshold - 1) * plan.intervalMs;
  let purged = now();

  return {
    process(batch) {
      const time = now();
      if (time - purged >= plan.windowMs) {
        // A bucket whose cells are all back is the same as no bucket: forget it.
        for (const [bucket, arrival] of arrivals) if (arrival <= time) arrivals.delete(bucket);
        purged = time;
      }
      const errors: NonNullable<TransformResult['errors']> = [];
      const excluded = exclude?.evaluate(batch.bytes);
      if (excluded) errors.push(...conditionErrors(excluded.failures));
      const keys = key?.render(batch.bytes, batch.count);
      if (keys) errors.push(...keys.errors);
      const reader = new BatchReader(batch.bytes);
      const passed = new BatchWriter(reader.flags);
      const discardedByKey = new Map<string | undefined, number>();
      for (const { index, record } of reader) {
        if (excluded && isSet(excluded.bits, index)) {
          passed.appendRaw(record);
          continue;
        }
        const bucket = keys?.values[index];
        const arrival = Math.max(arrivals.get(bucket) ?? time, time);
        if (arrival - time <= tolerance) {
          arrivals.set(bucket, arrival + plan.intervalMs);
          passed.appendRaw(record);
        } else {
          discardedByKey.set(bucket, (discardedByKey.get(bucket) ?? 0) + 1);
        }
      }
      const discarded: NonNullable<TransformResult['discarded']> = [];
      if (plan.perKeyMetric) {
        for (const [bucket, count] of discardedByKey)
          discarded.push({ count, intentional: true, reason: REASON, key: bucket ?? NO_KEY });
      } else if (discardedByKey.size > 0) {
        discarded.push({ count: batch.count - passed.count, intentional: true, reason: REASON });
      }
      const outputs = [
        { output: undefined, batch: discarded.length === 0 ? batch : { bytes: passed.finish(), count: passed.count } },
      ];
      return { outputs, discarded, errors, logs: logs.take() };
    },
  };
}
