// End-to-end acknowledgements through the topology: one finalizer per source batch, held by every batch its
// events end up in (fan-out, route ports, worker threads, chains), released by the sinks.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import type { SinkDefinition, SourceDefinition, TransformDefinition } from '../../../host/components/component.js';
import { TRANSFORMS } from '../../../host/components/transforms/index.js';
import { textLogHub } from '../support/log-hub.js';
import { testTopologyOptions } from '../support/topology.js';
import { BatchNotifier, type BatchStatus, type EventBatch } from '../../../host/topology/batch.js';
import { InlineExecutor, type TransformExecutor, WorkerExecutor } from '../../../host/topology/executor.js';
import { buildGraph, type ComponentSpec } from '../../../host/topology/graph.js';
import { Topology } from '../../../host/topology/run.js';
import { batchOf, collectSink, eventsOf, splitTransform } from '../support/components.js';

const { hub } = textLogHub({ level: 'error' });

const n = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ n: from + i }));

/** Sends `batches`, each with a finalizer when the topology asks for acknowledgements; `statuses` gets each
 * finalizer's status, `finalized` says whether the batches carried one. */
function ackSource(
  batches: EventBatch[],
  statuses: BatchStatus[],
  finalized: boolean[] = [],
): SourceDefinition<object> {
  return {
    kind: 'source',
    type: 'acking',
    description: 'test source',
    options: z.strictObject({}),
    outputs: () => [{ name: undefined, kinds: ['log'] }],
    build: async (_options, env) => ({
      async run(context) {
        finalized.push(env.acknowledgements === true);
        for (const batch of batches) {
          await context.send(
            env.acknowledgements
              ? { ...batch, finalizer: new BatchNotifier((status) => statuses.push(status)) }
              : batch,
          );
        }
      },
    }),
  };
}

/** Keeps the batches it is given without releasing them: the test releases them. */
function holdingSink(held: EventBatch[]): SinkDefinition<object> {
  return {
    kind: 'sink',
    type: 'holding',
    description: 'test sink',
    options: z.strictObject({}),
    inputs: () => ['log'],
    build: async () => ({
      async write(batch) {
        held.push(batch);
      },
      async close() {},
    }),
  };
}

const failingSink: SinkDefinition<object> = {
  kind: 'sink',
  type: 'failing',
  description: 'test sink',
  options: z.strictObject({}),
  inputs: () => ['log'],
  build: async () => ({
    async write() {
      throw new Error('refused');
    },
    async close() {},
  }),
};

/** Drops every event on purpose, as a filter that matches nothing. */
const dropAll: TransformDefinition<object, null> = {
  ...(splitTransform as unknown as TransformDefinition<object, null>),
  create: () => ({
    process: (batch) => ({ outputs: [], discarded: [{ count: batch.count, intentional: true, reason: 'test' }] }),
  }),
};

const failing: TransformDefinition<object, null> = {
  ...(splitTransform as unknown as TransformDefinition<object, null>),
  create: () => ({
    process() {
      throw new Error('boom');
    },
  }),
};

const source = (definition: SourceDefinition<object>): ComponentSpec => ({
  id: 'in',
  kind: 'source',
  type: definition.type,
  definition,
  options: {},
  inputs: [],
});

const component = (
  id: string,
  kind: 'transform' | 'sink',
  definition: ComponentSpec['definition'],
  inputs: string[],
  options: unknown = {},
): ComponentSpec => ({ id, kind, type: definition.type, definition, options, inputs });

async function run(
  specs: ComponentSpec[],
  acknowledging: (id: string) => boolean,
  executor: TransformExecutor = new InlineExecutor((type) => {
    const spec = specs.find((candidate) => candidate.type === type)!;
    return spec.definition as TransformDefinition;
  }),
): Promise<void> {
  const topology = await Topology.build(
    buildGraph(specs, 'strict'),
    testTopologyOptions(hub, executor, { sinkAcknowledges: acknowledging }),
  );
  await topology.start();
}

test('a batch fanned out and split over route ports is delivered once every sink has released its part', async () => {
  const statuses: BatchStatus[] = [];
  const held: EventBatch[] = [];
  const even: unknown[] = [];
  const all: unknown[] = [];
  await run(
    [
      source(ackSource([batchOf(n(0, 4)), batchOf(n(4, 8))], statuses)),
      component('split', 'transform', splitTransform, ['in'], { split: true }),
      component('odd', 'sink', holdingSink(held), ['split']),
      component('even', 'sink', collectSink(even), ['split.even']),
      component('all', 'sink', collectSink(all), ['in']),
    ],
    () => true,
  );
  assert.is(even.length, 4);
  assert.is(all.length, 8);
  assert.is(held.length, 2);
  // `even` and `all` released theirs; the odd events are still held.
  assert.equal(statuses, []);
  held[1]!.finalizer!.release();
  assert.equal(statuses, ['delivered']);
  held[0]!.finalizer!.release('errored');
  assert.equal(statuses, ['delivered', 'errored']);
});

test('a batch a transform drops entirely counts as delivered; one it fails on, or a sink fails to write, as errored', async () => {
  const dropped: BatchStatus[] = [];
  await run(
    [
      source(ackSource([batchOf(n(0, 3))], dropped)),
      component('drop', 'transform', dropAll, ['in']),
      component('out', 'sink', collectSink([]), ['drop']),
    ],
    () => true,
  );
  assert.equal(dropped, ['delivered']);

  const failed: BatchStatus[] = [];
  await run(
    [
      source(ackSource([batchOf(n(0, 3))], failed)),
      component('fail', 'transform', failing, ['in']),
      component('out', 'sink', collectSink([]), ['fail']),
    ],
    () => true,
  );
  assert.equal(failed, ['errored']);

  const refused: BatchStatus[] = [];
  const got: unknown[] = [];
  await run(
    [
      source(ackSource([batchOf(n(0, 3))], refused)),
      component('good', 'sink', collectSink(got), ['in']),
      component('bad', 'sink', failingSink, ['in']),
    ],
    () => true,
  );
  assert.is(got.length, 3);
  assert.equal(refused, ['errored']);
});

test('only sinks with acknowledgements hold the source; with none, batches carry no finalizer', async () => {
  const statuses: BatchStatus[] = [];
  const held: EventBatch[] = [];
  const finalized: boolean[] = [];
  await run(
    [
      source(ackSource([batchOf(n(0, 2))], statuses, finalized)),
      component('quiet', 'sink', holdingSink(held), ['in']),
      component('acking', 'sink', collectSink([]), ['in']),
    ],
    (id) => id === 'acking',
  );
  assert.equal(finalized, [true]);
  // `quiet` does not acknowledge: it got the batch without the finalizer, released on its behalf.
  assert.is(held[0]!.finalizer, undefined);
  assert.equal(statuses, ['delivered']);

  const none: boolean[] = [];
  const seen: EventBatch[] = [];
  await run(
    [source(ackSource([batchOf(n(0, 2))], [], none)), component('quiet', 'sink', holdingSink(seen), ['in'])],
    () => false,
  );
  assert.equal(none, [false]);
  assert.is(seen[0]!.finalizer, undefined);
});

test('small batches queued for a sink are written together; each source batch still gets its status', async () => {
  const statuses: BatchStatus[] = [];
  const writes: EventBatch[] = [];
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  const batches = Array.from({ length: 10 }, (_, i) => batchOf(n(3 * i, 3 * i + 3)));
  const sending = ackSource(batches, statuses);
  // The sink's first write waits until the source sent everything, which then queues behind it.
  const gatedSource: SourceDefinition<object> = {
    ...sending,
    build: async (options, env) => {
      const built = await sending.build(options, env);
      return {
        async run(context) {
          await built.run(context);
          open();
        },
      };
    },
  };
  const gatedSink: SinkDefinition<object> = {
    ...holdingSink([]),
    build: async () => ({
      async write(batch) {
        writes.push(batch);
        await opened;
      },
      async close() {},
    }),
  };
  await run([source(gatedSource), component('out', 'sink', gatedSink, ['in'])], () => true);
  assert.equal(
    writes.map((batch) => batch.count),
    [3, 27],
  );
  assert.equal(
    writes.flatMap(eventsOf),
    n(0, 30).map((event) => ({ n: BigInt(event.n) })),
  );
  writes[1]!.finalizer!.release('errored');
  assert.equal(statuses, Array(9).fill('errored'));
  writes[0]!.finalizer!.release();
  assert.equal(statuses, [...Array(9).fill('errored'), 'delivered']);
});

test('transforms in worker threads: the finalizer stays on the main thread and follows the outputs, chains and route ports included', async () => {
  const statuses: BatchStatus[] = [];
  const held: EventBatch[] = [];
  const small: unknown[] = [];
  const kept: unknown[] = [];
  const definitions = await Promise.all(['remap', 'filter', 'route'].map((type) => TRANSFORMS.get(type)!()));
  const [remap, filter, route] = definitions as [TransformDefinition, TransformDefinition, TransformDefinition];
  await run(
    [
      source(ackSource([batchOf(n(0, 10)), batchOf(n(10, 20))], statuses)),
      component('mark', 'transform', remap, ['in'], remap.options.parse({ source: '.marked = true' })),
      component('odd', 'transform', filter, ['mark'], filter.options.parse({ condition: 'int!(.n) % 2 == 1' })),
      component('kept', 'sink', collectSink(kept), ['odd']),
      component('route', 'transform', route, ['in'], route.options.parse({ route: { small: 'int!(.n) < 5' } })),
      component('small', 'sink', collectSink(small), ['route.small']),
      component('large', 'sink', holdingSink(held), ['route._unmatched']),
    ],
    () => true,
    new WorkerExecutor(2),
  );
  assert.is(kept.length, 10);
  assert.is(small.length, 5);
  assert.equal(held.flatMap((batch) => eventsOf(batch)).length, 15);
  assert.equal(statuses, []);
  for (const batch of held) batch.finalizer!.release();
  assert.equal(statuses, ['delivered', 'delivered']);
});

test('reduce: a merged event carries the finalizers of every source batch merged into it; one it keeps holds its source until it leaves', async () => {
  const statuses: BatchStatus[] = [];
  const held: EventBatch[] = [];
  const reduce = (await TRANSFORMS.get('reduce')!()) as TransformDefinition;
  await run(
    [
      source(
        ackSource(
          [
            batchOf([
              { id: 'a', n: 1 },
              { id: 'b', n: 1 },
            ]),
            batchOf([{ id: 'a', n: 2, end: true }]),
          ],
          statuses,
        ),
      ),
      component(
        'merge',
        'transform',
        reduce,
        ['in'],
        reduce.options.parse({ group_by: ['id'], ends_when: 'exists(.end)' }),
      ),
      component('out', 'sink', holdingSink(held), ['merge']),
    ],
    () => true,
    new WorkerExecutor(1),
  );
  // Transaction `a` ended in the second batch; `b` left at shutdown.
  assert.equal(
    held.map((batch) => eventsOf(batch)),
    [[{ id: 'a', n: 3n, end: true }], [{ id: 'b', n: 1n }]],
  );
  assert.equal(statuses, []);
  // The second source batch is all in `a`; the first is in both.
  held[0]!.finalizer!.release();
  assert.equal(statuses, ['delivered']);
  held[1]!.finalizer!.release('errored');
  assert.equal(statuses, ['delivered', 'errored']);
});

test.run();
