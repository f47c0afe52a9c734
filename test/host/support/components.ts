// Component definitions for topology tests: a source that sends prepared batches, transforms that pass or
// split them, and a sink that collects what reaches it.

import { z } from 'zod';
import { componentEnv } from './env.js';
import type {
  ComponentEnv,
  SinkDefinition,
  SourceDefinition,
  TransformDefinition,
} from '../../../host/components/component.js';
import type { EventBatch, EventKind } from '../../../host/topology/batch.js';
import { decodeBatch, encodeBatch } from '../../../abi/batch.js';

export function batchOf(events: unknown[], kind: EventKind = 'log'): EventBatch {
  return {
    bytes: encodeBatch(
      events.map((event) => ({ kind, event })),
      0,
    ),
    count: events.length,
  };
}

export function eventsOf(batch: EventBatch): unknown[] {
  return decodeBatch(batch.bytes).events.map((record) => record.event);
}

/** Sends `batches` in order, then ends (or waits for shutdown when `untilShutdown`). */
export function listSource(
  batches: EventBatch[],
  options: { kinds?: EventKind[]; untilShutdown?: boolean } = {},
): SourceDefinition<object> {
  return {
    kind: 'source',
    type: 'list',
    description: 'test source',
    options: z.strictObject({}),
    outputs: () => [{ name: undefined, kinds: options.kinds ?? ['log'] }],
    build: async () => ({
      async run(context) {
        for (const batch of batches) await context.send(batch);
        if (options.untilShutdown && !context.shutdown.aborted) {
          await new Promise((resolve) => context.shutdown.addEventListener('abort', resolve));
        }
      },
    }),
  };
}

/** Passes batches on; with `split`, events whose `n` is even go to output `even`, the others to the default. */
export const splitTransform: TransformDefinition<{ split?: boolean }, { split: boolean }> = {
  kind: 'transform',
  type: 'split',
  description: 'test transform',
  options: z.strictObject({ split: z.boolean().optional() }),
  inputs: () => ['log'],
  outputs: (options) => [
    { name: undefined, kinds: ['log'] },
    ...(options.split ? [{ name: 'even', kinds: ['log'] as EventKind[] }] : []),
  ],
  prepare: async (options) => ({ split: options.split ?? false }),
  create: (plan) => ({
    process(batch) {
      if (!plan.split) return { outputs: [{ output: undefined, batch }] };
      const events = eventsOf(batch) as Array<{ n: bigint }>;
      const even = events.filter((event) => event.n % 2n === 0n);
      const odd = events.filter((event) => event.n % 2n !== 0n);
      return {
        outputs: [
          { output: undefined, batch: batchOf(odd) },
          { output: 'even', batch: batchOf(even) },
        ],
        discarded: [],
      };
    },
  }),
};

/** Collects the events it receives into `into`; `delayMs` makes each write slow. */
export function collectSink(
  into: unknown[],
  options: { kinds?: EventKind[]; delayMs?: number } = {},
): SinkDefinition<object> {
  return {
    kind: 'sink',
    type: 'collect',
    description: 'test sink',
    options: z.strictObject({}),
    inputs: () => options.kinds ?? ['log', 'metric', 'trace'],
    build: async () => ({
      async write(batch) {
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        into.push(...eventsOf(batch));
        batch.finalizer?.release();
      },
      async close() {},
    }),
  };
}

/** Prepares a transform from raw options (through its schema) and creates its runner inline. */
export async function runnerOf<Options, Plan>(
  definition: TransformDefinition<Options, Plan>,
  rawOptions: unknown,
  env: ComponentEnv = componentEnv(definition, 't'),
) {
  const plan = await definition.prepare(definition.options.parse(rawOptions), env);
  return { plan, runner: await definition.create(structuredClone(plan)) };
}
