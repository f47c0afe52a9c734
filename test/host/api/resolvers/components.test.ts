// The component queries on a known topology: Relay pagination, Vector's filters and sorts, the relations
// between components, their outputs and metrics, and componentAdded/componentRemoved as the topology changes.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { component, run, subscription, testContext } from './context.js';

//   in ──▶ tag ──▶ split.a ──▶ out ◀── host
//           └────▶ archive    split.b, split._unmatched: no consumer
const topology = () => [
  component({ id: 'in', kind: 'source', type: 'stdin' }),
  component({ id: 'host', kind: 'source', type: 'internal_metrics', outputTypes: ['metric'] }),
  component({ id: 'both', kind: 'source', type: 'demo_logs', outputTypes: ['log', 'metric'] }),
  component({ id: 'tag', kind: 'transform', type: 'remap', inputs: ['in'] }),
  component({
    id: 'split',
    kind: 'transform',
    type: 'route',
    inputs: ['tag'],
    outputs: ['a', 'b', '_unmatched'],
    defaultOutput: false,
  }),
  component({ id: 'out', kind: 'sink', type: 'console', inputs: ['split', 'host'] }),
  component({ id: 'archive', kind: 'sink', type: 'file', inputs: ['tag'] }),
];

const cursor = (index: number) => Buffer.from(`Cursor:${index}`).toString('base64url');
const ids = (result: { data?: any }, field = 'components') =>
  result.data[field].edges.map((edge: any) => edge.node.componentId);

test('components: every component by id, with cursors, page info and the total count', async () => {
  const result = await run(
    testContext(topology()),
    '{ components { totalCount edges { cursor node { __typename componentId componentType } } nodes { componentId } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } }',
  );
  assert.is(result.errors, undefined);
  const { components } = result.data;
  assert.is(components.totalCount, 7);
  assert.equal(ids(result), ['archive', 'both', 'host', 'in', 'out', 'split', 'tag']);
  assert.equal(
    components.nodes.map((node: any) => node.componentId),
    ids(result),
  );
  assert.equal(
    components.edges.map((edge: any) => edge.cursor),
    [0, 1, 2, 3, 4, 5, 6].map(cursor),
  );
  assert.equal(components.edges[0].node, { __typename: 'Sink', componentId: 'archive', componentType: 'file' });
  assert.equal(components.edges[5].node.__typename, 'Transform');
  assert.equal(components.edges[1].node.__typename, 'Source');
  assert.equal(components.pageInfo, {
    hasPreviousPage: false,
    hasNextPage: false,
    startCursor: cursor(0),
    endCursor: cursor(6),
  });
});

test('pagination: first/after walks forward, last/before backward', async () => {
  const context = testContext(topology());
  const page =
    'totalCount edges { node { componentId } } pageInfo { hasPreviousPage hasNextPage startCursor endCursor }';
  const first = await run(context, `{ components(first: 3) { ${page} } }`);
  assert.equal(ids(first), ['archive', 'both', 'host']);
  assert.equal(first.data.components.pageInfo, {
    hasPreviousPage: false,
    hasNextPage: true,
    startCursor: cursor(0),
    endCursor: cursor(2),
  });
  assert.is(first.data.components.totalCount, 7);
  const second = await run(context, `query($after: String) { components(first: 3, after: $after) { ${page} } }`, {
    after: first.data.components.pageInfo.endCursor,
  });
  assert.equal(ids(second), ['in', 'out', 'split']);
  assert.equal(second.data.components.pageInfo, {
    hasPreviousPage: true,
    hasNextPage: true,
    startCursor: cursor(3),
    endCursor: cursor(5),
  });
  const third = await run(context, `{ components(first: 3, after: "${cursor(5)}") { ${page} } }`);
  assert.equal(ids(third), ['tag']);
  assert.is(third.data.components.pageInfo.hasNextPage, false);
  const last = await run(context, `{ components(last: 2) { ${page} } }`);
  assert.equal(ids(last), ['split', 'tag']);
  assert.equal(last.data.components.pageInfo, {
    hasPreviousPage: true,
    hasNextPage: false,
    startCursor: cursor(5),
    endCursor: cursor(6),
  });
  const before = await run(context, `{ components(last: 2, before: "${cursor(5)}") { ${page} } }`);
  assert.equal(ids(before), ['in', 'out']);
  const between = await run(context, `{ components(after: "${cursor(1)}", before: "${cursor(4)}") { ${page} } }`);
  assert.equal(ids(between), ['host', 'in']);
  const none = await run(context, `{ components(first: 0) { ${page} } }`);
  assert.equal(none.data.components.edges, []);
  assert.equal(none.data.components.pageInfo, {
    hasPreviousPage: false,
    hasNextPage: true,
    startCursor: null,
    endCursor: null,
  });
});

test('pagination errors: first with last, a negative size, a foreign cursor', async () => {
  const context = testContext(topology());
  const both = await run(context, '{ components(first: 1, last: 1) { totalCount } }');
  assert.equal(
    both.errors!.map((error) => error.message),
    ['The "first" and "last" parameters cannot exist at the same time'],
  );
  assert.is(both.data, null);
  const negative = await run(context, '{ sinks(last: -1) { totalCount } }');
  assert.equal(
    negative.errors!.map((error) => error.message),
    ['The "last" parameter must be a non-negative number'],
  );
  const foreign = await run(context, '{ components(after: "bm9wZQ") { totalCount } }');
  assert.equal(
    foreign.errors!.map((error) => error.message),
    ['"after" is not a cursor of this connection: "bm9wZQ"'],
  );
});

test('filters: StringFilter operators on ids and types, kinds, output types, and `or`', async () => {
  const context = testContext(topology());
  const components = async (filter: string) =>
    ids(await run(context, `{ components(filter: ${filter}) { edges { node { componentId } } } }`));
  assert.equal(await components('{ componentId: [{ equals: "tag" }] }'), ['tag']);
  assert.equal(await components('{ componentId: [{ notEquals: "tag" }] }'), [
    'archive',
    'both',
    'host',
    'in',
    'out',
    'split',
  ]);
  assert.equal(await components('{ componentId: [{ contains: "o" }] }'), ['both', 'host', 'out']);
  assert.equal(await components('{ componentId: [{ notContains: "o" }, { notContains: "a" }] }'), ['in', 'split']);
  assert.equal(await components('{ componentId: [{ startsWith: "s", endsWith: "t" }] }'), ['split']);
  assert.equal(await components('{ componentKind: [{ equals: SINK }] }'), ['archive', 'out']);
  assert.equal(await components('{ componentKind: [{ notEquals: SOURCE }], componentId: [{ contains: "t" }] }'), [
    'out',
    'split',
    'tag',
  ]);
  assert.equal(
    await components('{ componentId: [{ equals: "in" }], or: [{ componentKind: [{ equals: TRANSFORM }] }] }'),
    ['in', 'split', 'tag'],
  );
  assert.equal(await components('{}'), ['archive', 'both', 'host', 'in', 'out', 'split', 'tag']);

  const sources = async (filter: string) =>
    ids(await run(context, `{ sources(filter: ${filter}) { edges { node { componentId } } } }`), 'sources');
  assert.equal(await sources('{ outputType: [{ contains: METRIC }] }'), ['both', 'host']);
  assert.equal(await sources('{ outputType: [{ notContains: METRIC }] }'), ['in']);
  assert.equal(await sources('{ outputType: [{ equals: [METRIC, LOG] }] }'), ['both']);
  assert.equal(await sources('{ outputType: [{ notEquals: [LOG] }] }'), ['both', 'host']);
  assert.equal(
    await sources('{ componentType: [{ endsWith: "_logs" }], or: [{ componentType: [{ equals: "stdin" }] }] }'),
    ['both', 'in'],
  );
  const transforms = await run(
    context,
    '{ transforms(filter: { componentType: [{ equals: "route" }] }) { totalCount edges { node { componentId } } } }',
  );
  assert.equal(ids(transforms, 'transforms'), ['split']);
  assert.is(transforms.data.transforms.totalCount, 1);
  assert.equal(
    ids(
      await run(
        context,
        '{ sinks(filter: { componentType: [{ notEquals: "file" }] }) { edges { node { componentId } } } }',
      ),
      'sinks',
    ),
    ['out'],
  );
});

test('sorts: by the first field, ties by the next, each ascending or descending', async () => {
  const context = testContext(topology());
  const kindThenKey = await run(
    context,
    '{ components(sort: [{ field: COMPONENT_KIND }, { field: COMPONENT_KEY, direction: DESC }]) { edges { node { componentId } } } }',
  );
  assert.equal(ids(kindThenKey), ['in', 'host', 'both', 'tag', 'split', 'out', 'archive']);
  const kindDesc = await run(
    context,
    '{ components(sort: [{ field: COMPONENT_KIND, direction: DESC }]) { edges { node { componentId } } } }',
  );
  assert.equal(ids(kindDesc), ['archive', 'out', 'split', 'tag', 'both', 'host', 'in']);
  const sinkTypes = await run(
    context,
    '{ sinks(sort: [{ field: COMPONENT_TYPE, direction: DESC }]) { edges { node { componentId } } } }',
  );
  assert.equal(ids(sinkTypes, 'sinks'), ['archive', 'out']);
  const outputTypes = await run(
    context,
    '{ sources(sort: [{ field: OUTPUT_TYPE }, { field: COMPONENT_KEY, direction: DESC }]) { edges { node { componentId } } } }',
  );
  assert.equal(ids(outputTypes, 'sources'), ['in', 'both', 'host']);
  const transformTypes = await run(
    context,
    '{ transforms(sort: [{ field: COMPONENT_TYPE }], first: 1) { edges { node { componentId } } pageInfo { hasNextPage } } }',
  );
  assert.equal(ids(transformTypes, 'transforms'), ['tag']);
  assert.is(transformTypes.data.transforms.pageInfo.hasNextPage, true);
});

test('componentByComponentKey: the component, or null', async () => {
  const context = testContext(topology());
  const found = await run(
    context,
    '{ componentByComponentKey(componentId: "split") { __typename componentId componentType ... on Transform { outputs { outputId } } } }',
  );
  assert.equal(found.data.componentByComponentKey, {
    __typename: 'Transform',
    componentId: 'split',
    componentType: 'route',
    outputs: [{ outputId: 'a' }, { outputId: 'b' }, { outputId: '_unmatched' }],
  });
  const missing = await run(context, '{ componentByComponentKey(componentId: "nope") { componentId } }');
  assert.is(missing.errors, undefined);
  assert.is(missing.data.componentByComponentKey, null);
});

test('relations: what each source, transform and sink feeds and is fed by', async () => {
  const result = await run(
    testContext(topology()),
    `{ components { nodes { componentId
        ... on Source { outputTypes transforms { componentId } sinks { componentId } }
        ... on Transform { sources { componentId } transforms { componentId } sinks { componentId } }
        ... on Sink { sources { componentId } transforms { componentId } } } } }`,
  );
  const byId = Object.fromEntries(result.data.components.nodes.map((node: any) => [node.componentId, node]));
  const names = (list: any[]) => list.map((item) => item.componentId);
  assert.equal(byId.in.outputTypes, ['LOG']);
  assert.equal(byId.both.outputTypes, ['LOG', 'METRIC']);
  assert.equal(names(byId.in.transforms), ['tag']);
  assert.equal(names(byId.in.sinks), []);
  assert.equal(names(byId.host.sinks), ['out']);
  assert.equal(names(byId.tag.sources), ['in']);
  assert.equal(names(byId.tag.transforms), ['split']);
  assert.equal(names(byId.tag.sinks), ['archive']);
  assert.equal(names(byId.split.sources), []);
  assert.equal(names(byId.split.sinks), ['out']);
  assert.equal(names(byId.out.sources), ['host']);
  assert.equal(names(byId.out.transforms), ['split']);
  assert.equal(names(byId.archive.transforms), ['tag']);
});

test('outputs and metrics: sums of the component counters, null where there is no counter', async () => {
  const context = testContext(topology());
  const tags = (id: string, kind: string, type: string) => ({
    component_id: id,
    component_kind: kind,
    component_type: type,
  });
  context.metrics.counter('component_received_bytes_total', tags('in', 'source', 'stdin')).increment(120);
  context.metrics.counter('component_received_events_total', tags('in', 'source', 'stdin')).increment(10);
  context.metrics
    .counter('component_sent_events_total', { ...tags('in', 'source', 'stdin'), output: '_default' })
    .increment(10);
  context.metrics.counter('component_received_events_total', tags('split', 'transform', 'route')).increment(10);
  context.metrics
    .counter('component_sent_events_total', { ...tags('split', 'transform', 'route'), output: 'a' })
    .increment(6);
  context.metrics
    .counter('component_sent_events_total', { ...tags('split', 'transform', 'route'), output: 'b' })
    .increment(3);
  context.metrics.counter('component_received_events_total', tags('out', 'sink', 'console')).increment(6);
  context.metrics.counter('component_sent_bytes_total', tags('out', 'sink', 'console')).increment(300);
  const value = (field: string) => `${field} { ${field} timestamp }`;
  const result = await run(
    context,
    `{ components { nodes { componentId
        ... on Source { outputs { outputId ${value('sentEventsTotal')} } metrics { __typename ${value('receivedBytesTotal')} ${value('receivedEventsTotal')} ${value('sentEventsTotal')} } }
        ... on Transform { outputs { outputId ${value('sentEventsTotal')} } metrics { __typename ${value('receivedEventsTotal')} ${value('sentEventsTotal')} } }
        ... on Sink { metrics { __typename ${value('receivedEventsTotal')} ${value('sentBytesTotal')} ${value('sentEventsTotal')} } } } } }`,
  );
  assert.is(result.errors, undefined);
  const byId = Object.fromEntries(result.data.components.nodes.map((node: any) => [node.componentId, node]));
  for (const node of result.data.components.nodes) {
    for (const metric of [
      ...Object.values(node.metrics),
      ...(node.outputs ?? []).map((output: any) => output.sentEventsTotal),
    ]) {
      if (metric !== null && typeof metric === 'object')
        assert.ok(!Number.isNaN(Date.parse((metric as any).timestamp)));
    }
  }
  const numbers = (metrics: any) =>
    Object.fromEntries(
      Object.entries(metrics).map(([field, metric]: [string, any]) => [
        field,
        field === '__typename' ? metric : (metric?.[field] ?? null),
      ]),
    );
  assert.equal(numbers(byId.in.metrics), {
    __typename: 'GenericSourceMetrics',
    receivedBytesTotal: 120,
    receivedEventsTotal: 10,
    sentEventsTotal: 10,
  });
  assert.equal(
    byId.in.outputs.map((output: any) => [output.outputId, output.sentEventsTotal.sentEventsTotal]),
    [['_default', 10]],
  );
  assert.equal(numbers(byId.split.metrics), {
    __typename: 'GenericTransformMetrics',
    receivedEventsTotal: 10,
    sentEventsTotal: 9,
  });
  assert.equal(
    byId.split.outputs.map((output: any) => [output.outputId, output.sentEventsTotal?.sentEventsTotal ?? null]),
    [
      ['a', 6],
      ['b', 3],
      ['_unmatched', null],
    ],
  );
  assert.equal(numbers(byId.out.metrics), {
    __typename: 'GenericSinkMetrics',
    receivedEventsTotal: 6,
    sentBytesTotal: 300,
    sentEventsTotal: null,
  });
  assert.equal(numbers(byId.host.metrics), {
    __typename: 'GenericSourceMetrics',
    receivedBytesTotal: null,
    receivedEventsTotal: null,
    sentEventsTotal: null,
  });
  assert.equal(
    byId.tag.outputs.map((output: any) => [output.outputId, output.sentEventsTotal]),
    [['_default', null]],
  );
});

test('componentAdded and componentRemoved follow the topology as it changes', async () => {
  const context = testContext(topology());
  const added = await subscription(context, 'subscription { componentAdded { __typename componentId componentType } }');
  const removed = await subscription(context, 'subscription { componentRemoved { __typename componentId } }');
  const extra = {
    id: 'late',
    kind: 'transform',
    type: 'filter',
    inputs: ['in'],
    outputs: [],
    defaultOutput: true,
    outputTypes: ['log'],
  } as const;
  context.topology = [...context.topology, extra];
  context.componentChanges.emit('change', { change: 'added', component: extra });
  const old = context.topology.find((component) => component.id === 'archive')!;
  context.topology = context.topology.filter((component) => component !== old);
  context.componentChanges.emit('change', { change: 'removed', component: old });
  assert.equal((await added.next()).data, {
    componentAdded: { __typename: 'Transform', componentId: 'late', componentType: 'filter' },
  });
  assert.equal((await removed.next()).data, { componentRemoved: { __typename: 'Sink', componentId: 'archive' } });
  const after = await run(context, '{ components { nodes { componentId } } }');
  assert.equal(
    after.data.components.nodes.map((node: any) => node.componentId),
    ['both', 'host', 'in', 'late', 'out', 'split', 'tag'],
  );
  await added.close();
  await removed.close();
  assert.is(context.componentChanges.listenerCount('change'), 0);
});

test.run();
