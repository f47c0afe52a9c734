// What a transform worker imports to create a transform: the module of that type's runner, on first use.
// remap's runner has a module of its own, without the option schemas (index.ts) a worker never needs:
// their library was most of a worker's start-up. The others are created from their definitions.

import type { TransformDefinition, TransformRunner } from '../component.js';

type CreateRunner = (plan: unknown) => TransformRunner | Promise<TransformRunner>;

const definitionCreate = (load: () => Promise<{ default: TransformDefinition }>) => async (): Promise<CreateRunner> => {
  const definition = (await load()).default;
  return (plan) => definition.create(plan);
};

/** Each transform type's `create`, by type (test/host/components/transforms/runners.test.ts checks the
 * types against the definitions'). */
export const RUNNERS: Readonly<Record<string, () => Promise<CreateRunner>>> = {
  remap: async () => (await import('./remap-runner.js')).createRemap as CreateRunner,
  aggregate: definitionCreate(() => import('./aggregate.js')),
  dedupe: definitionCreate(() => import('./dedupe.js')),
  filter: definitionCreate(() => import('./filter.js')),
  log_to_metric: definitionCreate(() => import('./log_to_metric.js')),
  metric_to_log: definitionCreate(() => import('./metric_to_log.js')),
  reduce: definitionCreate(() => import('./reduce.js')),
  route: definitionCreate(() => import('./route.js')),
  sample: definitionCreate(() => import('./sample.js')),
  tag_cardinality_limit: definitionCreate(() => import('./tag_cardinality_limit.js')),
  throttle: definitionCreate(() => import('./throttle.js')),
};

/** Loads the modules of `type`'s runner ahead of its first `createRunner`; a failure shows there. */
export function preloadRunner(type: string): void {
  RUNNERS[type]?.().catch(() => undefined);
}

/** Creates a transform of `type` from its plan. */
export async function createRunner(type: string, plan: unknown): Promise<TransformRunner> {
  const load = RUNNERS[type];
  if (load === undefined) throw new Error(`unknown transform type "${type}"`);
  return (await load())(plan);
}
