// The transform types, by name, each with the loader of its module and option schema (the main thread's;
// a worker imports runners.ts): a run loads only the types its configuration uses.

import type { TransformDefinition } from '../component.js';

export const TRANSFORMS: ReadonlyMap<string, () => Promise<TransformDefinition>> = new Map<
  string,
  () => Promise<TransformDefinition>
>([
  ['aggregate', async () => (await import('./aggregate.js')).default],
  ['dedupe', async () => (await import('./dedupe.js')).default],
  ['filter', async () => (await import('./filter.js')).default],
  ['log_to_metric', async () => (await import('./log_to_metric.js')).default],
  ['metric_to_log', async () => (await import('./metric_to_log.js')).default],
  ['reduce', async () => (await import('./reduce.js')).default],
  ['remap', async () => (await import('./remap.js')).default],
  ['route', async () => (await import('./route.js')).default],
  ['sample', async () => (await import('./sample.js')).default],
  ['tag_cardinality_limit', async () => (await import('./tag_cardinality_limit.js')).default],
  ['throttle', async () => (await import('./throttle.js')).default],
]);
