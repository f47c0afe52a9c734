// The transforms' plans cross to worker threads (structuredClone of modules) and give the same events there.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { componentRegistry, transformDefinition } from '../../../../host/components/registry.js';
import {
  InlineExecutor,
  WorkerExecutor,
  worthJoining,
  type TransformExecutor,
} from '../../../../host/topology/executor.js';
import { batchOf, eventsOf } from '../../support/components.js';
import { componentEnv } from '../../support/env.js';

// Loads every transform type, for transformDefinition.
await componentRegistry();

const CHAIN: Array<[string, object]> = [
  ['remap', { source: '.doubled = int!(.n) * 2' }],
  ['filter', { condition: 'int!(.n) != 3' }],
  ['route', { route: { small: 'int!(.n) < 5' } }],
  ['sample', { rate: 2, sample_rate_key: '' }],
  ['dedupe', { fields: { match: ['k'] } }],
  ['throttle', { threshold: 100, window_secs: 1, key_field: '{{ k }}' }],
];

async function outputs(executor: TransformExecutor): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const [type, options] of CHAIN) {
    const definition = transformDefinition(type);
    const plan = await definition.prepare(definition.options.parse(options), componentEnv(definition, type));
    await executor.create(type, type, plan);
    const events = Array.from({ length: 10 }, (_, n) => ({ n, k: n % 4 }));
    const result = await executor.process(type, batchOf(events));
    results.push(
      result.outputs.map(({ output, batch }) => [output, eventsOf(batch)]),
      result.discarded,
    );
  }
  await executor.close();
  return results;
}

test('every transform gives the same events in 2 worker threads as inline', async () => {
  const inline = await outputs(new InlineExecutor(transformDefinition));
  const workers = await outputs(new WorkerExecutor(2));
  assert.equal(workers, inline);
});

test('a concurrent transform runs on one worker until the others join; then they run it too', async () => {
  const executor = new WorkerExecutor(2);
  try {
    await joinedRuns(executor);
  } finally {
    await executor.close();
  }
});

async function joinedRuns(executor: WorkerExecutor): Promise<void> {
  const definition = transformDefinition('remap');
  const plan = await definition.prepare(
    definition.options.parse({ source: '.doubled = int!(.n) * 2' }),
    componentEnv(definition, 'remap'),
  );
  await executor.create('double', 'remap', plan, true);
  assert.is(executor.startedWorkers, 1);
  const batches = Array.from({ length: 40 }, (_, i) => [{ n: i }, { n: i + 100 }]);
  const results = await Promise.all(batches.map((events) => executor.process('double', batchOf(events))));
  executor.join();
  assert.is(executor.startedWorkers, 2);
  // Batches sent once the second worker has created the transform run there as well.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const later = await Promise.all(batches.map((events) => executor.process('double', batchOf(events))));
  for (const result of [...results, ...later]) {
    const [input] = result.outputs.map(({ batch }) => eventsOf(batch));
    for (const event of input as Array<{ n: bigint; doubled: bigint }>) assert.is(event.doubled, event.n * 2n);
  }
}

test('no worker starts for a pipeline without transforms; one does when a reload adds a transform', async () => {
  const executor = new WorkerExecutor(0);
  try {
    assert.is(executor.startedWorkers, 0);
    executor.grow(2);
    const definition = transformDefinition('remap');
    const plan = await definition.prepare(
      definition.options.parse({ source: '.b = 1' }),
      componentEnv(definition, 'remap'),
    );
    await executor.create('added', 'remap', plan, true);
    const result = await executor.process('added', batchOf([{ a: 1 }]));
    assert.equal(
      result.outputs.map(({ batch }) => eventsOf(batch)),
      [[{ a: 1n, b: 1n }]],
    );
  } finally {
    await executor.close();
  }
});

test('the other workers join when the busiest is saturated and half a core is spare', () => {
  assert.ok(worthJoining(0.97, 0.7));
  assert.not.ok(worthJoining(0.97, 0.3), 'no core to spare');
  assert.not.ok(worthJoining(0.6, 1.5), 'the worker keeps up');
});

test.run();
