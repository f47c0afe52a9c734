import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { textLogHub } from '../support/log-hub.js';
import { InlineExecutor, type TransformExecutor, WorkerExecutor } from '../../../host/topology/executor.js';
import { buildGraph, type ComponentSpec } from '../../../host/topology/graph.js';
import { chainedTransforms, fusedEdges, Topology } from '../../../host/topology/run.js';
import { MetricsRegistry } from '../../../host/telemetry/metrics.js';
import type { TransformDefinition } from '../../../host/components/component.js';
import reduce from '../../../host/components/transforms/reduce.js';
import remap from '../../../host/components/transforms/remap.js';
import filter from '../../../host/components/transforms/filter.js';
import { batchOf, collectSink, listSource, splitTransform } from '../support/components.js';
import { testTopologyOptions } from '../support/topology.js';
import { waitFor } from '../../support/wait-for.js';

const { hub, lines: logLines } = textLogHub();

async function topology(
  specs: ComponentSpec[],
  options: { maxEvents?: number; whenFull?: 'block' | 'drop_newest'; globals?: unknown } = {},
) {
  const metrics = new MetricsRegistry();
  const graph = buildGraph(specs, 'strict');
  const executor = new InlineExecutor((type) => {
    if (type !== 'split') throw new Error(type);
    return splitTransform as TransformDefinition;
  });
  const running = await Topology.build(
    graph,
    testTopologyOptions(hub, executor, {
      sinkBuffer: () => ({ maxEvents: options.maxEvents ?? 500, whenFull: options.whenFull ?? 'block' }),
      globals: options.globals,
      hostname: 'test-host',
      metrics,
    }),
  );
  return { running, metrics };
}

const n = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ n: from + i }));

test('events flow source → transform → sinks, fanned out, through named outputs, and the run ends by itself', async () => {
  const odd: unknown[] = [];
  const even: unknown[] = [];
  const all: unknown[] = [];
  const { running, metrics } = await topology([
    {
      id: 'in',
      kind: 'source',
      type: 'list',
      definition: listSource([batchOf(n(0, 5)), batchOf(n(5, 8))]),
      options: {},
      inputs: [],
    },
    {
      id: 'split',
      kind: 'transform',
      type: 'split',
      definition: splitTransform,
      options: { split: true },
      inputs: ['in'],
    },
    { id: 'odd', kind: 'sink', type: 'collect', definition: collectSink(odd), options: {}, inputs: ['split'] },
    { id: 'even', kind: 'sink', type: 'collect', definition: collectSink(even), options: {}, inputs: ['split.even'] },
    { id: 'all', kind: 'sink', type: 'collect', definition: collectSink(all), options: {}, inputs: ['in'] },
  ]);
  await running.start();
  assert.equal(odd, [{ n: 1n }, { n: 3n }, { n: 5n }, { n: 7n }]);
  assert.equal(even, [{ n: 0n }, { n: 2n }, { n: 4n }, { n: 6n }]);
  assert.is(all.length, 8);
  assert.is(metrics.total('component_received_events_total', { component_id: 'split' }), 8);
  assert.is(metrics.total('component_sent_events_total', { component_id: 'split', output: 'even' }), 4);
  assert.is(metrics.total('component_sent_events_total', { component_id: 'split', output: '_default' }), 4);
  assert.is(metrics.total('component_sent_events_total', { component_id: 'in' }), 8);
  assert.is(metrics.total('component_received_events_total', { component_id: 'in' }), 8);
  assert.is(metrics.total('component_received_events_total', { component_id: 'all' }), 8);
});

test('block: a slow sink holds the source back and nothing is lost', async () => {
  const got: unknown[] = [];
  const batches = Array.from({ length: 20 }, (_, i) => batchOf(n(i * 10, i * 10 + 10)));
  const { running, metrics } = await topology(
    [
      { id: 'in', kind: 'source', type: 'list', definition: listSource(batches), options: {}, inputs: [] },
      {
        id: 'out',
        kind: 'sink',
        type: 'collect',
        definition: collectSink(got, { delayMs: 2 }),
        options: {},
        inputs: ['in'],
      },
    ],
    { maxEvents: 20 },
  );
  await running.start();
  assert.equal(
    got,
    n(0, 200).map(({ n }) => ({ n: BigInt(n) })),
  );
  assert.is(metrics.total('component_discarded_events_total'), 0);
});

test('drop_newest: a slow sink loses whole batches, counted as discards', async () => {
  const got: unknown[] = [];
  const batches = Array.from({ length: 20 }, (_, i) => batchOf(n(i * 10, i * 10 + 10)));
  const { running, metrics } = await topology(
    [
      { id: 'in', kind: 'source', type: 'list', definition: listSource(batches), options: {}, inputs: [] },
      {
        id: 'out',
        kind: 'sink',
        type: 'collect',
        definition: collectSink(got, { delayMs: 5 }),
        options: {},
        inputs: ['in'],
      },
    ],
    { maxEvents: 20, whenFull: 'drop_newest' },
  );
  await running.start();
  const discarded = metrics.total('component_discarded_events_total', { component_id: 'out', intentional: 'false' });
  assert.ok(discarded > 0);
  assert.is(got.length + discarded, 200);
  const buffer = { component_id: 'out', buffer_id: 'out', stage: '0' };
  assert.is(metrics.total('buffer_discarded_events_total', { ...buffer, intentional: 'false' }), discarded);
  assert.is(metrics.total('buffer_received_events_total', buffer), got.length);
  assert.is(metrics.total('buffer_sent_events_total', buffer), got.length);
});

test("telemetry.tags: the source and service (`-`: svc's events have none) tags on the event counters, downstream too", async () => {
  const specs: ComponentSpec[] = [
    { id: 'a', kind: 'source', type: 'list', definition: listSource([batchOf(n(0, 5))]), options: {}, inputs: [] },
    {
      id: 'b',
      kind: 'source',
      type: 'list',
      definition: listSource([batchOf(n(0, 3)), batchOf(n(3, 4))]),
      options: {},
      inputs: [],
    },
    {
      id: 'split',
      kind: 'transform',
      type: 'split',
      definition: splitTransform,
      options: { split: true },
      inputs: ['a', 'b'],
    },
    { id: 'pass', kind: 'transform', type: 'split', definition: concurrentSplit, options: {}, inputs: ['split.even'] },
    { id: 'next', kind: 'transform', type: 'split', definition: concurrentSplit, options: {}, inputs: ['pass'] },
    { id: 'out', kind: 'sink', type: 'collect', definition: collectSink([]), options: {}, inputs: ['split', 'next'] },
  ];
  const { running, metrics } = await topology(specs, {
    globals: { telemetry: { tags: { emit_source: true, emit_service: true } } },
  });
  await running.start();
  const series = (name: string, id: string) =>
    metrics
      .snapshot()
      .filter((s) => s.name === name && s.tags.component_id === id)
      .map((s) => `${s.tags.output ?? ''}/${s.tags.source}/${s.tags.service}=${(s.value as { value: number }).value}`)
      .sort();
  assert.equal(series('component_sent_events_total', 'a'), ['_default/a/-=5']);
  assert.equal(series('component_received_events_total', 'b'), ['/b/-=4']);
  assert.equal(series('component_received_events_total', 'split'), ['/a/-=5', '/b/-=4']);
  assert.equal(series('component_sent_events_total', 'split'), [
    '_default/a/-=2',
    '_default/b/-=2',
    'even/a/-=3',
    'even/b/-=2',
  ]);
  // `pass` and `next` run as one chain in one call.
  assert.equal(series('component_sent_events_total', 'pass'), ['_default/a/-=3', '_default/b/-=2']);
  assert.equal(series('component_received_events_total', 'next'), ['/a/-=3', '/b/-=2']);
  assert.equal(series('component_received_events_total', 'out'), ['/a/-=5', '/b/-=4']);
  assert.ok(
    metrics
      .snapshot()
      .filter((s) => s.name === 'component_sent_event_bytes_total' && s.tags.component_id === 'split')
      .every((s) => 'source' in s.tags && s.tags.service === '-'),
  );

  const plain = await topology(specs);
  await plain.running.start();
  assert.equal(
    plain.metrics.snapshot().filter((s) => 'source' in s.tags || 'service' in s.tags),
    [],
  );
  assert.is(plain.metrics.total('component_received_events_total', { component_id: 'out' }), 9);
});

test("buffer metrics: a transform's input buffer, a source output's (its consumers' buffers), a sink's buffer_*", async () => {
  const { running, metrics } = await topology([
    {
      id: 'in',
      kind: 'source',
      type: 'list',
      definition: listSource([batchOf(n(0, 5)), batchOf(n(5, 8))]),
      options: {},
      inputs: [],
    },
    {
      id: 'split',
      kind: 'transform',
      type: 'split',
      definition: splitTransform,
      options: { split: true },
      inputs: ['in'],
    },
    {
      id: 'odd',
      kind: 'sink',
      type: 'collect',
      definition: collectSink([]),
      options: {},
      inputs: ['split', 'split.even'],
    },
    { id: 'all', kind: 'sink', type: 'collect', definition: collectSink([]), options: {}, inputs: ['in'] },
  ]);
  await running.start();
  const samples = metrics.snapshot();
  const value = (name: string, tags: Record<string, string>) => {
    const found = samples.filter((s) => s.name === name && Object.entries(tags).every(([k, v]) => s.tags[k] === v));
    assert.is(found.length, 1, `${name} ${JSON.stringify(tags)}: ${JSON.stringify(found)}`);
    return found[0]!.value;
  };
  const gauge = (v: number) => ({ type: 'gauge', value: v });
  const split = { component_id: 'split', component_kind: 'transform', component_type: 'split' };
  assert.equal(value('transform_buffer_max_size_events', split), gauge(100));
  assert.equal(value('transform_buffer_max_event_size', split), gauge(100));
  assert.equal(value('transform_buffer_utilization_level', split), gauge(0));
  // Two pushes and two pops.
  assert.is((value('transform_buffer_utilization', split) as { count: number }).count, 4);
  const source = { component_id: 'in', component_kind: 'source', output: '_default' };
  assert.equal(value('source_buffer_max_size_events', source), gauge(100));
  assert.equal(value('source_buffer_max_event_size', source), gauge(100));
  assert.equal(value('source_buffer_utilization_level', source), gauge(0));
  // Every change of either consumer's buffer: two batches in and out of each.
  assert.is((value('source_buffer_utilization', source) as { count: number }).count, 8);
  const mean = value('source_buffer_utilization_mean', source) as { value: number };
  assert.ok(mean.value > 0 && mean.value < 8, String(mean.value));
  const odd = { component_id: 'odd', component_kind: 'sink', buffer_id: 'odd', stage: '0' };
  assert.equal(value('buffer_received_events_total', odd), { type: 'counter', value: 8 });
  assert.equal(value('buffer_sent_events_total', odd), { type: 'counter', value: 8 });
  const bytes = (value('buffer_received_bytes_total', odd) as { value: number }).value;
  assert.ok(bytes > 0);
  assert.equal(value('buffer_sent_bytes_total', odd), { type: 'counter', value: bytes });
  assert.equal(value('buffer_size_events', odd), gauge(0));
  assert.equal(value('buffer_size_bytes', odd), gauge(0));
  assert.equal(value('utilization', split).type, 'gauge');
  assert.equal(
    samples.filter((s) => s.name === 'utilization' && s.tags.component_id === 'in'),
    [],
    'a source has no utilization',
  );
});

test('a lone batch goes through a transform at once, without waiting for the next batch or the end', async () => {
  const got: unknown[] = [];
  const { running } = await topology([
    {
      id: 'in',
      kind: 'source',
      type: 'list',
      definition: listSource([batchOf(n(0, 2))], { untilShutdown: true }),
      options: {},
      inputs: [],
    },
    { id: 't', kind: 'transform', type: 'split', definition: splitTransform, options: {}, inputs: ['in'] },
    { id: 'out', kind: 'sink', type: 'collect', definition: collectSink(got), options: {}, inputs: ['t'] },
  ]);
  const done = running.start();
  await waitFor(
    () => got.length >= 2,
    () => `2 events, got ${got.length}`,
  );
  assert.is(got.length, 2);
  running.stop();
  await done;
});

test('stop() ends a source that waits for shutdown, and what it sent drains', async () => {
  const got: unknown[] = [];
  const { running } = await topology([
    {
      id: 'in',
      kind: 'source',
      type: 'list',
      definition: listSource([batchOf(n(0, 3))], { untilShutdown: true }),
      options: {},
      inputs: [],
    },
    {
      id: 'out',
      kind: 'sink',
      type: 'collect',
      definition: collectSink(got, { delayMs: 5 }),
      options: {},
      inputs: ['in'],
    },
  ]);
  const done = running.start();
  // Stopped once the batch is on its way: the sink has its first event (and takes 5 ms for each).
  await waitFor(
    () => got.length > 0,
    () => 'the first event',
  );
  running.stop();
  await done;
  assert.is(got.length, 3);
});

test('a transform that throws loses that batch only, counted and logged', async () => {
  const got: unknown[] = [];
  const failing: TransformDefinition<object, null> = {
    ...(splitTransform as unknown as TransformDefinition<object, null>),
    create: () => ({
      process(batch) {
        if (batch.count === 2) throw new Error('boom');
        return { outputs: [{ output: undefined, batch }] };
      },
    }),
  };
  const metrics = new MetricsRegistry();
  const running = await Topology.build(
    buildGraph(
      [
        {
          id: 'in',
          kind: 'source',
          type: 'list',
          definition: listSource([batchOf(n(0, 1)), batchOf(n(1, 3)), batchOf(n(3, 4))]),
          options: {},
          inputs: [],
        },
        { id: 't', kind: 'transform', type: 'split', definition: failing, options: {}, inputs: ['in'] },
        { id: 'out', kind: 'sink', type: 'collect', definition: collectSink(got), options: {}, inputs: ['t'] },
      ],
      'strict',
    ),
    testTopologyOptions(hub, new InlineExecutor(() => failing as TransformDefinition), {
      maxDecompressedSize: 1,
      metrics,
    }),
  );
  logLines.length = 0;
  await running.start();
  assert.equal(got, [{ n: 0n }, { n: 3n }]);
  assert.is(metrics.total('component_errors_total', { component_id: 't' }), 2);
  assert.ok(
    logLines.some(
      (line) => line.includes('Transform failed on a batch of 2 events: boom') && line.includes('component_id=t'),
    ),
  );
});

test('a transform with two batches in flight forwards them in input order, however fast each is answered', async () => {
  const got: unknown[] = [];
  const passThrough = splitTransform as unknown as TransformDefinition<object, null>;
  const inline = new InlineExecutor(
    () =>
      ({
        ...passThrough,
        create: () => ({ process: (batch) => ({ outputs: [{ output: undefined, batch }] }) }),
      }) as TransformDefinition,
  );
  // Every other batch is answered late, so a later batch's answer comes first.
  let calls = 0;
  const executor: TransformExecutor = {
    create: (id, type, plan) => inline.create(id, type, plan),
    remove: (id) => inline.remove(id),
    publishEnrichmentTables: () => {},
    publishMemoryTableChanges: () => {},
    grow: () => {},
    parallelism: () => 1,
    process: (id, batch) => inline.process(id, batch),
    async processChain(chain, batches) {
      if (calls++ % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      return inline.processChain(chain, batches);
    },
    flush: (id, ended) => inline.flush(id, ended),
    close: () => inline.close(),
  };
  const batches = Array.from({ length: 10 }, (_, i) => batchOf(n(i * 3, i * 3 + 3)));
  const running = await Topology.build(
    buildGraph(
      [
        { id: 'in', kind: 'source', type: 'list', definition: listSource(batches), options: {}, inputs: [] },
        { id: 't', kind: 'transform', type: 'pass', definition: passThrough, options: {}, inputs: ['in'] },
        { id: 'out', kind: 'sink', type: 'collect', definition: collectSink(got), options: {}, inputs: ['t'] },
      ],
      'strict',
    ),
    testTopologyOptions(hub, executor, { maxDecompressedSize: 1 }),
  );
  await running.start();
  assert.equal(
    got,
    n(0, 30).map(({ n }) => ({ n: BigInt(n) })),
  );
});

test('a transform that keeps events flushes on its period without new input, in its worker, and everything at shutdown before its sinks close', async () => {
  const expired: unknown[] = [];
  const atShutdown: unknown[] = [];
  const transform = (id: string, options: unknown): ComponentSpec => ({
    id,
    kind: 'transform',
    type: 'reduce',
    definition: reduce as TransformDefinition,
    options: reduce.options.parse(options),
    inputs: ['in'],
  });
  const metrics = new MetricsRegistry();
  const running = await Topology.build(
    buildGraph(
      [
        {
          id: 'in',
          kind: 'source',
          type: 'list',
          definition: listSource([batchOf([{ n: 1 }, { n: 2 }])], { untilShutdown: true }),
          options: {},
          inputs: [],
        },
        transform('quick', { expire_after_ms: 0, flush_period_ms: 10 }),
        transform('slow', {}),
        {
          id: 'expired',
          kind: 'sink',
          type: 'collect',
          definition: collectSink(expired),
          options: {},
          inputs: ['quick'],
        },
        {
          id: 'last',
          kind: 'sink',
          type: 'collect',
          definition: collectSink(atShutdown),
          options: {},
          inputs: ['slow'],
        },
      ],
      'strict',
    ),
    testTopologyOptions(hub, new WorkerExecutor(1), { metrics }),
  );
  const done = running.start();
  await waitFor(
    () => expired.length === 1,
    () => `the expired group; got ${JSON.stringify(expired, (_, v) => (typeof v === 'bigint' ? Number(v) : v))}`,
  );
  assert.equal(expired, [{ n: 3n }]);
  assert.equal(atShutdown, []);
  assert.is(metrics.total('stale_events_flushed_total', { component_id: 'quick' }), 1);
  assert.is(metrics.total('component_sent_events_total', { component_id: 'quick' }), 1);
  running.stop();
  await done;
  assert.equal(atShutdown, [{ n: 3n }]);
});

/** `split` as a concurrent transform: chained to its neighbours where the graph allows. */
const concurrentSplit = { ...splitTransform, concurrent: true } as TransformDefinition;

test('chainedTransforms: a concurrent transform whose only output feeds only a concurrent transform fed by nothing else', () => {
  const transform = (
    id: string,
    inputs: string[],
    options: object = {},
    definition = concurrentSplit,
  ): ComponentSpec => ({ id, kind: 'transform', type: 'split', definition, options, inputs });
  const graph = buildGraph(
    [
      { id: 'in', kind: 'source', type: 'list', definition: listSource([]), options: {}, inputs: [] },
      transform('a', ['in']),
      transform('b', ['a']),
      transform('c', ['b'], { split: true }),
      transform('d', ['c']),
      transform('e', ['c.even']),
      transform('f', ['d']),
      transform('g', ['d']),
      transform('h', ['e', 'in']),
      transform('i', ['in'], {}, splitTransform as TransformDefinition),
      transform('j', ['i']),
      {
        id: 'out',
        kind: 'sink',
        type: 'collect',
        definition: collectSink([]),
        options: {},
        inputs: ['f', 'g', 'h', 'j'],
      },
    ],
    'strict',
  );
  // c has two outputs, d two consumers, h two inputs, i is not concurrent.
  assert.equal([...chainedTransforms(graph)], [['a', ['b', 'c']]]);
});

test("a chain of concurrent transforms runs as one call: outputs and every transform's counts as if they ran apart", async () => {
  const odd: unknown[] = [];
  const even: unknown[] = [];
  const { running, metrics } = await topology([
    {
      id: 'in',
      kind: 'source',
      type: 'list',
      definition: listSource([batchOf(n(0, 5)), batchOf(n(5, 8))]),
      options: {},
      inputs: [],
    },
    { id: 'pass', kind: 'transform', type: 'split', definition: concurrentSplit, options: {}, inputs: ['in'] },
    {
      id: 'split',
      kind: 'transform',
      type: 'split',
      definition: concurrentSplit,
      options: { split: true },
      inputs: ['pass'],
    },
    { id: 'odd', kind: 'sink', type: 'collect', definition: collectSink(odd), options: {}, inputs: ['split'] },
    { id: 'even', kind: 'sink', type: 'collect', definition: collectSink(even), options: {}, inputs: ['split.even'] },
  ]);
  await running.start();
  assert.equal(odd, [{ n: 1n }, { n: 3n }, { n: 5n }, { n: 7n }]);
  assert.equal(even, [{ n: 0n }, { n: 2n }, { n: 4n }, { n: 6n }]);
  for (const [metric, tags, value] of [
    ['component_received_events_total', { component_id: 'pass' }, 8],
    ['component_sent_events_total', { component_id: 'pass' }, 8],
    ['component_received_events_total', { component_id: 'split' }, 8],
    ['component_sent_events_total', { component_id: 'split', output: 'even' }, 4],
    ['component_sent_events_total', { component_id: 'split', output: '_default' }, 4],
  ] as const) {
    assert.is(metrics.total(metric, tags), value, `${metric} ${JSON.stringify(tags)}`);
  }
});

test('fusedEdges: a source feeding only a transform that does codec work (remap, filter with a remap condition) fed by nothing else; such a transform whose default output alone feeds a sink fed by nothing else', () => {
  const source = (id: string): ComponentSpec => ({
    id,
    kind: 'source',
    type: 'list',
    definition: listSource([]),
    options: {},
    inputs: [],
  });
  const definitions: Record<string, [TransformDefinition, unknown]> = {
    remap: [remap as TransformDefinition, { reroute_dropped: true }],
    'filter-vrl': [filter as TransformDefinition, { condition: { type: 'vrl', source: '.a == 1' } }],
    'filter-kind': [filter as TransformDefinition, { condition: { type: 'is_log' } }],
    split: [splitTransform as TransformDefinition, { split: true }],
  };
  const transform = (id: string, type: string, inputs: string[]): ComponentSpec => ({
    id,
    kind: 'transform',
    type,
    definition: definitions[type]![0],
    options: definitions[type]![1],
    inputs,
  });
  const sink = (id: string, inputs: string[]): ComponentSpec => ({
    id,
    kind: 'sink',
    type: 'collect',
    definition: collectSink([]),
    options: {},
    inputs,
  });
  const graph = buildGraph(
    [
      source('a'),
      source('b'),
      source('c'),
      source('d'),
      source('e'),
      transform('ra', 'remap', ['a']),
      transform('rbc', 'remap', ['b', 'c']),
      transform('other', 'split', ['c']),
      transform('fd', 'filter-vrl', ['d']),
      transform('fe', 'filter-kind', ['e']),
      sink('only', ['ra']),
      sink('shared', ['rbc', 'other']),
      sink('fd-only', ['fd']),
      sink('fe-only', ['fe']),
      sink('dropped', ['ra.dropped']),
    ],
    'strict',
  );
  const { decodingSources, encodingTransforms } = fusedEdges(graph);
  assert.equal(
    [...decodingSources],
    [
      ['a', 'ra'],
      ['d', 'fd'],
    ],
  );
  assert.equal(
    [...encodingTransforms],
    [
      ['ra', 'only'],
      ['fd', 'fd-only'],
    ],
  );
});

test.run();
