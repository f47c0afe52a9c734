// `route`: each event goes to the output of every route whose condition it matches (`<id>.<route>`), and
// to `<id>._unmatched` when it matches none (or is discarded, with `reroute_unmatched: false`).

import { z } from 'zod';
import { complement, pickRecords, recordEnds } from '../../../runtime/engine.js';
import type { EventKind } from '../../topology/batch.js';
import type { TransformDefinition, TransformResult } from '../component.js';
import {
  Condition,
  conditionErrors,
  conditionSchema,
  prepareCondition,
  type ConditionPlan,
} from '../support/condition.js';
import { RemapLogs } from '../support/remap-program.js';

const UNMATCHED = '_unmatched';
/** Output names a route may not take: the transform's own outputs. */
const RESERVED = [UNMATCHED, '_default'];
const ALL_KINDS: EventKind[] = ['log', 'metric', 'trace'];

const options = z.strictObject({
  route: z.record(z.string(), conditionSchema).superRefine((routes, context) => {
    for (const name of Object.keys(routes)) {
      if (RESERVED.includes(name)) {
        context.addIssue({
          code: 'custom',
          path: [name],
          message: `"${name}" is a reserved output name and cannot be a route id (reserved: ${RESERVED.join(', ')})`,
        });
      }
    }
  }),
  reroute_unmatched: z.boolean().default(true),
});

type RouteOptions = z.output<typeof options>;

interface RoutePlan {
  routes: Array<{ name: string; condition: ConditionPlan }>;
  rerouteUnmatched: boolean;
}

const route: TransformDefinition<RouteOptions, RoutePlan> = {
  kind: 'transform',
  type: 'route',
  concurrent: true,
  description: 'Splits a stream of events into multiple sub-streams based on a set of conditions.',
  options,
  inputs: () => ALL_KINDS,
  outputs: (config) => [
    ...Object.keys(config.route).map((name) => ({ name, kinds: ALL_KINDS })),
    ...(config.reroute_unmatched ? [{ name: UNMATCHED, kinds: ALL_KINDS }] : []),
  ],
  async prepare(config, env) {
    const routes = await Promise.all(
      Object.entries(config.route).map(async ([name, condition]) => ({
        name,
        condition: await prepareCondition(condition, env, `route "${name}"`),
      })),
    );
    return { routes, rerouteUnmatched: config.reroute_unmatched };
  },
  async create(plan) {
    const logs = new RemapLogs();
    const routes = await Promise.all(
      plan.routes.map(async ({ name, condition }) => ({ name, condition: await Condition.create(condition, logs) })),
    );
    return {
      process(batch) {
        const ends = recordEnds(batch.bytes);
        const anyMatched = new Uint8Array((ends.length + 7) >> 3);
        const results = routes.map(({ name, condition }) => {
          const { bits, failures } = condition.evaluate(batch.bytes);
          for (let i = 0; i < anyMatched.length; i++) anyMatched[i]! |= bits[i]!;
          return { name, failures, picked: pickRecords(batch.bytes, ends, bits) };
        });
        const unmatched = pickRecords(batch.bytes, ends, complement(anyMatched));
        const outputs: TransformResult['outputs'] = results.map(({ name, picked }) => ({
          output: name,
          batch: picked,
        }));
        const discarded: NonNullable<TransformResult['discarded']> = [];
        if (plan.rerouteUnmatched) outputs.push({ output: UNMATCHED, batch: unmatched });
        else if (unmatched.count > 0)
          discarded.push({ count: unmatched.count, intentional: true, reason: 'Event did not match any route.' });
        return {
          outputs,
          discarded,
          errors: results.flatMap(({ failures }) => conditionErrors(failures)),
          logs: logs.take(),
        };
      },
    };
  },
};

export default route;
