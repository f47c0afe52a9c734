import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import { textLogHub } from '../support/log-hub.js';
import { testTopologyOptions } from '../support/topology.js';
import { InlineExecutor } from '../../../host/topology/executor.js';
import { buildGraph, type ComponentSpec } from '../../../host/topology/graph.js';
import { BuildError, Topology } from '../../../host/topology/run.js';
import type { SinkDefinition, SourceDefinition, TransformDefinition } from '../../../host/components/component.js';
import { batchOf, collectSink, eventsOf, listSource } from '../support/components.js';
import reduce from '../../../host/components/transforms/reduce.js';
import { MetricsRegistry } from '../../../host/telemetry/metrics.js';
import { waitFor } from '../../support/wait-for.js';

const { hub } = textLogHub({ level: 'error' });

/** What the components of a run did, in order. */
interface Journal {
  /** Events numbered as sent. */
  sent: number;
  received: Array<{ n: number; tag: string; sink: string }>;
  steps: string[];
}

/** Sends `total` events numbered from 0 in batches of 50, yielding between them, then waits for its stop. A
 * replacement goes on from where the journal says. */
function pumpSource(journal: Journal, total: number): SourceDefinition<{ name: string }> {
  return {
    kind: 'source',
    type: 'pump',
    description: 'test source',
    options: z.strictObject({ name: z.string() }),
    outputs: () => [{ name: undefined, kinds: ['log'] }],
    build: async (options) => {
      journal.steps.push(`build ${options.name}`);
      return {
        async run(context) {
          while (journal.sent < total && !context.shutdown.aborted) {
            const from = journal.sent;
            const to = Math.min(total, from + 50);
            journal.sent = to;
            await context.send(batchOf(Array.from({ length: to - from }, (_, i) => ({ n: from + i }))));
            await new Promise((resolve) => setImmediate(resolve));
          }
          if (!context.shutdown.aborted)
            await new Promise((resolve) => context.shutdown.addEventListener('abort', resolve));
          journal.steps.push(`stopped ${options.name}`);
        },
      };
    },
  };
}

/** Sets `tag` on every event; `fail` makes it fail to build. */
const tagTransform: TransformDefinition<{ tag: string; fail?: boolean }, { tag: string }> = {
  kind: 'transform',
  type: 'tag',
  concurrent: true,
  description: 'test transform',
  options: z.strictObject({ tag: z.string(), fail: z.boolean().optional() }),
  inputs: () => ['log'],
  outputs: () => [{ name: undefined, kinds: ['log'] }],
  prepare: async (options) => {
    if (options.fail) throw new Error('cannot build this one');
    return { tag: options.tag };
  },
  create: (plan) => ({
    process(batch) {
      const events = eventsOf(batch) as Array<{ n: bigint }>;
      return { outputs: [{ output: undefined, batch: batchOf(events.map((event) => ({ ...event, tag: plan.tag }))) }] };
    },
  }),
};

/** Journals what it receives under its `name`, and when it is closed. */
function journalSink(journal: Journal): SinkDefinition<{ name: string }> {
  return {
    kind: 'sink',
    type: 'journal',
    description: 'test sink',
    options: z.strictObject({ name: z.string() }),
    inputs: () => ['log'],
    build: async (options) => ({
      async write(batch) {
        for (const event of eventsOf(batch) as Array<{ n: bigint; tag?: string }>)
          journal.received.push({ n: Number(event.n), tag: event.tag ?? '', sink: options.name });
        batch.finalizer?.release();
      },
      async close() {
        journal.steps.push(`closed ${options.name}`);
      },
    }),
  };
}

function setup(total: number) {
  const journal: Journal = { sent: 0, received: [], steps: [] };
  const definitions = { pump: pumpSource(journal, total), tag: tagTransform, journal: journalSink(journal) };
  const spec = (
    id: string,
    kind: ComponentSpec['kind'],
    type: keyof typeof definitions,
    options: object,
    inputs: string[] = [],
  ) => ({ id, kind, type, definition: definitions[type], options, inputs }) as ComponentSpec;
  const executor = new InlineExecutor(() => tagTransform as TransformDefinition);
  const options = testTopologyOptions(hub, executor, {
    sinkBuffer: () => ({ maxEvents: 200, whenFull: 'block' }),
    transformBufferEvents: 200,
    chunkSize: 50,
    hostname: 'test-host',
  });
  const graph = (specs: ComponentSpec[]) => buildGraph(specs, 'strict');
  const receivedAtLeast = (count: number) =>
    waitFor(
      () => journal.received.length >= count,
      () => `${journal.received.length} received`,
    );
  /** Waits for every event, stops the topology and checks that each arrived once. */
  const finish = async (topology: Topology, running: Promise<void>) => {
    await receivedAtLeast(total);
    topology.stop();
    await running;
    await topology.close();
    assertEachOnce(numbers(journal), total);
  };
  return { journal, spec, options, graph, receivedAtLeast, finish };
}

const numbers = (journal: Journal, sink?: string) =>
  journal.received.filter((event) => sink === undefined || event.sink === sink).map((event) => event.n);

function assertEachOnce(received: number[], total: number): void {
  const sorted = [...received].sort((a, b) => a - b);
  assert.is(sorted.length, total, 'every event delivered exactly once');
  assert.ok(
    sorted.every((n, i) => n === i),
    'every event delivered exactly once',
  );
}

test('a changed transform is rebuilt while events stream: none is lost and the new one applies from the reload on', async () => {
  const total = 20000;
  const { journal, spec, options, graph, receivedAtLeast, finish } = setup(total);
  const specs = (tag: string) => [
    spec('in', 'source', 'pump', { name: 'in' }),
    spec('tag', 'transform', 'tag', { tag }, ['in']),
    spec('out', 'sink', 'journal', { name: 'out' }, ['tag']),
  ];
  const topology = await Topology.build(graph(specs('a')), options);
  const running = topology.run();
  await receivedAtLeast(5000);
  topology.commitReload(await topology.prepareReload(graph(specs('x')), options));
  topology.commitReload(await topology.prepareReload(graph(specs('b')), options));
  const sentAtReload = journal.sent;
  assert.ok(sentAtReload < total, 'the reload happened mid-stream');
  assert.equal(journal.steps, ['build in'], 'the source was kept');
  await finish(topology, running);
  const late = journal.received.filter((event) => event.n >= sentAtReload);
  assert.ok(late.length > 0 && late.every((event) => event.tag === 'b'), 'events sent after the reload are tagged b');
  assert.ok(
    journal.received.some((event) => event.tag === 'a'),
    'events before it were tagged a',
  );
});

test('a changed sink keeps its buffer: the old sink is closed after its last write and the new one takes the rest', async () => {
  const total = 20000;
  const { journal, spec, options, graph, receivedAtLeast, finish } = setup(total);
  const specs = (name: string) => [
    spec('in', 'source', 'pump', { name: 'in' }),
    spec('out', 'sink', 'journal', { name }, ['in']),
  ];
  const topology = await Topology.build(graph(specs('first')), options);
  const running = topology.run();
  await receivedAtLeast(5000);
  topology.commitReload(await topology.prepareReload(graph(specs('second')), options));
  await finish(topology, running);
  const firstOfSecond = journal.received.findIndex((event) => event.sink === 'second');
  assert.ok(firstOfSecond > 0, 'both sinks wrote');
  assert.ok(
    journal.received.slice(firstOfSecond).every((event) => event.sink === 'second'),
    'the old sink wrote nothing after the new one started',
  );
  assert.equal(journal.steps, ['build in', 'closed first', 'stopped in', 'closed second']);
});

test('a sink whose own proxy changed is rebuilt with it in its env; the same proxy keeps the running sink', async () => {
  const { journal, spec, options, graph } = setup(0);
  const proxies: unknown[] = [];
  const journaling = journalSink(journal);
  const proxied: SinkDefinition<{ name: string }> = {
    ...journaling,
    build: (sinkOptions, env) => {
      proxies.push(env.proxy);
      return journaling.build(sinkOptions, env);
    },
  };
  const specs = (http: string) => [
    spec('in', 'source', 'pump', { name: 'in' }),
    {
      ...spec('out', 'sink', 'journal', { name: 'out' }, ['in']),
      definition: proxied,
      proxy: { enabled: true, http, no_proxy: [] },
    } as ComponentSpec,
  ];
  const topology = await Topology.build(graph(specs('http://first:3128')), options);
  const running = topology.run();
  topology.commitReload(await topology.prepareReload(graph(specs('http://first:3128')), options));
  topology.commitReload(await topology.prepareReload(graph(specs('http://second:3128')), options));
  topology.stop();
  await running;
  await topology.close();
  assert.equal(
    proxies.map((proxy) => (proxy as { http: string }).http),
    ['http://first:3128', 'http://second:3128'],
  );
  // The replaced sink and its replacement were both closed; the source was never rebuilt.
  assert.equal([...journal.steps].sort(), ['build in', 'closed out', 'closed out', 'stopped in']);
});

test('a transform that keeps events, replaced by a reload, lets out what it kept once its input has ended', async () => {
  const got: unknown[] = [];
  const metrics = new MetricsRegistry();
  const specs = (maxEvents: number): ComponentSpec[] => [
    {
      id: 'in',
      kind: 'source',
      type: 'list',
      definition: listSource([batchOf([{ n: 0 }, { n: 1 }])], { untilShutdown: true }),
      options: {},
      inputs: [],
    },
    {
      id: 'merge',
      kind: 'transform',
      type: 'reduce',
      definition: reduce as TransformDefinition,
      options: reduce.options.parse({ merge_strategies: { n: 'array' }, max_events: maxEvents }),
      inputs: ['in'],
    },
    { id: 'out', kind: 'sink', type: 'collect', definition: collectSink(got), options: {}, inputs: ['merge'] },
  ];
  const options = testTopologyOptions(hub, new InlineExecutor(() => reduce as TransformDefinition), { metrics });
  const topology = await Topology.build(buildGraph(specs(10), 'strict'), options);
  const running = topology.run();
  await waitFor(
    () => metrics.total('component_received_events_total', { component_id: 'merge' }) === 2,
    () => 'reduce to take both events',
  );
  assert.equal(got, []);
  topology.commitReload(await topology.prepareReload(buildGraph(specs(20), 'strict'), options));
  await waitFor(
    () => got.length === 1,
    () => 'the replaced reduce to flush',
  );
  assert.equal(got, [{ n: [0n, 1n] }]);
  topology.stop();
  await running;
  await topology.close();
});

test('a component that fails to build rejects the reload; the running topology goes on as it was', async () => {
  const total = 10000;
  const { journal, spec, options, graph, receivedAtLeast, finish } = setup(total);
  const specs = (fail: boolean) => [
    spec('in', 'source', 'pump', { name: 'in' }),
    spec('tag', 'transform', 'tag', { tag: 'a', fail }, ['in']),
    spec('out', 'sink', 'journal', { name: 'out' }, ['tag']),
    ...(fail ? [spec('extra', 'sink', 'journal', { name: 'extra' }, ['tag'])] : []),
  ];
  const topology = await Topology.build(graph(specs(false)), options);
  const running = topology.run();
  await receivedAtLeast(2000);
  const error = await topology.prepareReload(graph(specs(true)), options).catch((caught: unknown) => caught);
  assert.instance(error, BuildError);
  assert.equal(
    (error as BuildError).failures.map(({ spec, message }) => [spec.id, message]),
    [['tag', 'cannot build this one']],
  );
  await finish(topology, running);
  assert.ok(journal.received.every((event) => event.tag === 'a' && event.sink === 'out'));
  assert.ok(journal.steps.includes('closed extra'), 'the sink built for the rejected reload was closed');
});

test('components added and removed: a removed sink drains what it holds, an added one gets what comes after', async () => {
  const total = 20000;
  const { journal, spec, options, graph, receivedAtLeast, finish } = setup(total);
  const source = spec('in', 'source', 'pump', { name: 'in' });
  const topology = await Topology.build(
    graph([source, spec('old', 'sink', 'journal', { name: 'old' }, ['in'])]),
    options,
  );
  const running = topology.run();
  await receivedAtLeast(5000);
  const plan = await topology.prepareReload(
    graph([source, spec('new', 'sink', 'journal', { name: 'new' }, ['in'])]),
    options,
  );
  assert.equal([plan.added.map((added) => added.id), plan.removed.map((removed) => removed.id)], [['new'], ['old']]);
  topology.commitReload(plan);
  const sentAtReload = journal.sent;
  await finish(topology, running);
  assert.ok(
    numbers(journal, 'new').every((n) => n >= sentAtReload - 400),
    'the new sink only got what came after',
  );
  assert.ok(journal.steps.indexOf('closed old') > 0, 'the removed sink was closed');
});

test('a sink whose inputs all ended, given a new input by a reload, is rebuilt and takes it', async () => {
  const { journal, spec, options, graph, receivedAtLeast } = setup(100);
  // `once` sends one event and ends; the pump keeps the topology running through another sink.
  const once = {
    id: 'once',
    kind: 'source',
    type: 'list',
    definition: listSource([batchOf([{ n: 1000 }])]),
    options: {},
    inputs: [],
  } as ComponentSpec;
  const keep = spec('keep', 'source', 'pump', { name: 'keep' });
  const topology = await Topology.build(
    graph([
      once,
      keep,
      spec('out', 'sink', 'journal', { name: 'out' }, ['once']),
      spec('other', 'sink', 'journal', { name: 'other' }, ['keep']),
    ]),
    options,
  );
  const running = topology.run();
  await receivedAtLeast(101);
  await waitFor(
    () => journal.steps.includes('closed out'),
    () => `the sink of the ended source closed: ${journal.steps.join(', ')}`,
  );
  const more = { ...once, id: 'more', definition: listSource([batchOf([{ n: 2000 }, { n: 2001 }])]) };
  const plan = await topology.prepareReload(
    graph([
      once,
      keep,
      more,
      spec('out', 'sink', 'journal', { name: 'out2' }, ['once', 'more']),
      spec('other', 'sink', 'journal', { name: 'other' }, ['keep']),
    ]),
    options,
  );
  topology.commitReload(plan);
  await waitFor(
    () => numbers(journal, 'out2').length === 2,
    () => `the rebuilt sink got ${numbers(journal, 'out2').length} events; steps: ${journal.steps.join(', ')}`,
  );
  assert.equal(numbers(journal, 'out2').sort(), [2000, 2001]);
  topology.stop();
  await running;
  await topology.close();
});

test('a changed source is stopped before its replacement is built, and the stream goes on', async () => {
  const total = 20000;
  const { journal, spec, options, graph, receivedAtLeast, finish } = setup(total);
  const specs = (name: string) => [
    spec('in', 'source', 'pump', { name }),
    spec('out', 'sink', 'journal', { name: 'out' }, ['in']),
  ];
  const topology = await Topology.build(graph(specs('first')), options);
  const running = topology.run();
  await receivedAtLeast(5000);
  topology.commitReload(await topology.prepareReload(graph(specs('second')), options));
  await finish(topology, running);
  assert.equal(journal.steps, ['build first', 'stopped first', 'build second', 'stopped second', 'closed out']);
});

test.run();
