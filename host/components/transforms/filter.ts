// `filter`: forwards the events that match its condition and discards the others (on purpose).

import { z } from 'zod';
import { splitByBitmap } from '../../../runtime/engine.js';
import type { TransformDefinition } from '../component.js';
import {
  Condition,
  conditionErrors,
  conditionSchema,
  isProgram,
  prepareCondition,
  type ConditionPlan,
} from '../support/condition.js';
import { framedCounts, RemapLogs } from '../support/remap-program.js';

const options = z.strictObject({ condition: conditionSchema });

type FilterOptions = z.output<typeof options>;

/** Vector's reason for the events a filter drops. */
const DROPPED = 'Events matched filter condition.';

const filter: TransformDefinition<FilterOptions, ConditionPlan> = {
  kind: 'transform',
  type: 'filter',
  concurrent: true,
  description: 'Filters events based on a set of conditions.',
  options,
  inputs: () => ['log', 'metric', 'trace'],
  outputs: () => [{ name: undefined, kinds: ['log', 'metric', 'trace'] }],
  codecWork: (config) => isProgram(config.condition),
  prepare: (config, env) => prepareCondition(config.condition, env, 'condition', true),
  async create(plan) {
    const logs = new RemapLogs();
    const condition = await Condition.create(plan, logs);
    return {
      process(batch, encode) {
        if (batch.frames) {
          const framed = condition.runFramed(batch, encode);
          const passed = framed.count + framed.encodeErrors.length;
          return {
            outputs: [
              {
                output: undefined,
                batch: { bytes: framed.output, count: framed.count, encoded: encode !== undefined },
              },
            ],
            discarded:
              framed.decoded > passed ? [{ count: framed.decoded - passed, intentional: true, reason: DROPPED }] : [],
            errors: conditionErrors(framed.failures),
            logs: logs.take(),
            ...framedCounts(framed),
          };
        }
        const { bits, failures } = condition.evaluate(batch.bytes);
        const { matched, matchedCount, unmatchedCount } = splitByBitmap(batch.bytes, bits);
        return {
          outputs: [{ output: undefined, batch: { bytes: matched, count: matchedCount } }],
          discarded: unmatchedCount > 0 ? [{ count: unmatchedCount, intentional: true, reason: DROPPED }] : [],
          errors: conditionErrors(failures),
          logs: logs.take(),
        };
      },
    };
  },
};

export default filter;
