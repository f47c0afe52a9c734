// Every query and subscription document Vector 0.54's own clients send (cli/vector-documents/, copied
// unchanged), run against a live instance of a deterministic pipeline fed known lines: each returns data of
// the schema's shape with the counts of what was fed. The tap document (output_events_by_component_id_patterns)
// is tested with tap. Then: counters moving under a subscription, and bad input.
//
//   stdin `in` (json) ──▶ remap `tag` ──▶ route `split` ─ even ──▶ file `evens`
//                                                       ─ odd, _unmatched ──▶ blackhole `rest`

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { firstResults, query, resultsUntil, startApiInstance, type ApiInstance } from './support.js';
import { component, subscription, testContext } from './resolvers/context.js';
import { tempDir } from '../support/svc.js';
import { vectorDocument } from '../../../cli/vector-documents.js';

const document = vectorDocument;

const dir = tempDir();
const evensFile = join(dir, 'evens.log');
const PIPELINE = `sources:
  in:
    type: stdin
    decoding:
      codec: json
transforms:
  tag:
    type: remap
    inputs: [in]
    source: .n = int!(.n)
  split:
    type: route
    inputs: [tag]
    route:
      even: is_integer(.n) && mod(int!(.n), 2) == 0
      odd: is_integer(.n) && mod(int!(.n), 2) == 1
sinks:
  evens:
    type: file
    inputs: [split.even]
    path: ${evensFile}
    encoding:
      codec: json
  rest:
    type: blackhole
    inputs: [split.odd, split._unmatched]
`;

// Six numbers (three even), one event `tag` fails on (it passes on unchanged, unmatched by the routes) and
// one line that is not JSON (a decoding error of `in`).
const LINES = `${[1, 2, 3, 4, 5, 6].map((n) => `{"n":${n}}\n`).join('')}{"n":"x"}\nnot json\n`;

let api: ApiInstance;

/** Polls a component query until `done(data)` holds. */
async function until(text: string, done: (data: any) => boolean): Promise<void> {
  const deadline = Date.now() + 20000;
  for (;;) {
    const { body } = await query(api.base, text);
    if (done(body.data)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for the pipeline: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test.before(async () => {
  api = await startApiInstance(PIPELINE);
  api.run.child.stdin!.write(LINES);
  await until('{ sinks { nodes { componentId metrics { sentEventsTotal { sentEventsTotal } } } } }', (data) =>
    data.sinks.nodes.every(
      (sink: any) =>
        sink.metrics.sentEventsTotal?.sentEventsTotal === { evens: 3, rest: 4 }[sink.componentId as 'evens' | 'rest'],
    ),
  );
});
test.after(async () => {
  await api.stop();
});

test('queries/health.graphql and queries/meta_version_string.graphql', async () => {
  assert.equal((await query(api.base, document('queries/health.graphql'))).body, { data: { health: true } });
  const { body } = await query(api.base, document('queries/meta_version_string.graphql'));
  assert.is(body.errors, undefined);
  assert.match(body.data.meta.versionString, /^\d+\.\d+\.\d+/);
});

test('queries/components.graphql: every component with its outputs and metrics', async () => {
  const { status, body } = await query(api.base, document('queries/components.graphql'), { first: 100 });
  assert.is(status, 200);
  assert.is(body.errors, undefined);
  const nodes = body.data.components.edges.map((edge: any) => edge.node);
  const value = (field: string, n: number) => ({ [field]: n });
  const sent = (n: number) => value('sentEventsTotal', n);
  assert.equal(nodes, [
    {
      __typename: 'Sink',
      componentId: 'evens',
      componentType: 'file',
      metrics: {
        __typename: 'GenericSinkMetrics',
        receivedEventsTotal: value('receivedEventsTotal', 3),
        sentBytesTotal: value('sentBytesTotal', statSync(evensFile).size),
        sentEventsTotal: sent(3),
      },
    },
    {
      __typename: 'Source',
      componentId: 'in',
      componentType: 'stdin',
      outputs: [{ outputId: '_default', sentEventsTotal: sent(7) }],
      metrics: {
        __typename: 'GenericSourceMetrics',
        receivedBytesTotal: value('receivedBytesTotal', Buffer.byteLength(LINES)),
        receivedEventsTotal: value('receivedEventsTotal', 7),
        sentEventsTotal: sent(7),
      },
    },
    {
      __typename: 'Sink',
      componentId: 'rest',
      componentType: 'blackhole',
      metrics: {
        __typename: 'GenericSinkMetrics',
        receivedEventsTotal: value('receivedEventsTotal', 4),
        sentBytesTotal: null,
        sentEventsTotal: sent(4),
      },
    },
    {
      __typename: 'Transform',
      componentId: 'split',
      componentType: 'route',
      outputs: [
        { outputId: 'even', sentEventsTotal: sent(3) },
        { outputId: 'odd', sentEventsTotal: sent(3) },
        { outputId: '_unmatched', sentEventsTotal: sent(1) },
      ],
      metrics: {
        __typename: 'GenericTransformMetrics',
        receivedEventsTotal: value('receivedEventsTotal', 7),
        sentEventsTotal: sent(7),
      },
    },
    {
      __typename: 'Transform',
      componentId: 'tag',
      componentType: 'remap',
      outputs: [{ outputId: '_default', sentEventsTotal: sent(7) }],
      metrics: {
        __typename: 'GenericTransformMetrics',
        receivedEventsTotal: value('receivedEventsTotal', 7),
        sentEventsTotal: sent(7),
      },
    },
  ]);
  assert.equal(
    (await query(api.base, document('queries/components.graphql'), { first: 2 })).body.data.components.edges.length,
    2,
  );
});

/** The first result of a subscription document, with `interval`. */
async function first(name: string, field: string): Promise<any> {
  const [result] = await firstResults(api.ws, document(`subscriptions/${name}.graphql`), { interval: 100 }, 1);
  assert.is(result.errors, undefined);
  return result.data[field];
}

/** `[componentId, value]` of a list of component totals. */
const totals = (list: any[], field: string) => list.map((item: any) => [item.componentId, item.metric[field]]);

test('subscriptions/component_received_events_totals.graphql', async () => {
  const list = totals(
    await first('component_received_events_totals', 'componentReceivedEventsTotals'),
    'receivedEventsTotal',
  );
  const fromIn = list.find(([id]) => id === 'in');
  assert.ok(fromIn === undefined || fromIn[1] === 7);
  assert.equal(
    list.filter(([id]) => id !== 'in'),
    [
      ['evens', 3],
      ['rest', 4],
      ['split', 7],
      ['tag', 7],
    ].sort(),
  );
});

test('subscriptions/component_received_bytes_totals.graphql and component_sent_bytes_totals.graphql', async () => {
  assert.equal(
    totals(await first('component_received_bytes_totals', 'componentReceivedBytesTotals'), 'receivedBytesTotal'),
    [['in', Buffer.byteLength(LINES)]],
  );
  assert.equal(totals(await first('component_sent_bytes_totals', 'componentSentBytesTotals'), 'sentBytesTotal'), [
    ['evens', statSync(evensFile).size],
  ]);
});

test('subscriptions/component_sent_events_totals.graphql: totals with their outputs', async () => {
  const list = await first('component_sent_events_totals', 'componentSentEventsTotals');
  const output = (outputId: string, n: number) => ({ outputId, sentEventsTotal: { sentEventsTotal: n } });
  for (const sink of list.filter((item: any) => item.componentId === 'evens' || item.componentId === 'rest')) {
    assert.is(sink.metric.sentEventsTotal, { evens: 3, rest: 4 }[sink.componentId as 'evens' | 'rest']);
  }
  assert.equal(
    list.filter((item: any) => item.componentId !== 'evens' && item.componentId !== 'rest'),
    [
      { componentId: 'in', outputs: [output('_default', 7)], metric: { sentEventsTotal: 7 } },
      {
        componentId: 'split',
        outputs: [output('_unmatched', 1), output('even', 3), output('odd', 3)],
        metric: { sentEventsTotal: 7 },
      },
      { componentId: 'tag', outputs: [output('_default', 7)], metric: { sentEventsTotal: 7 } },
    ],
  );
});

test('subscriptions/component_errors_totals.graphql', async () => {
  assert.equal(totals(await first('component_errors_totals', 'componentErrorsTotals'), 'errorsTotal'), [
    ['in', 1],
    ['tag', 1],
  ]);
});

test('subscriptions/component_allocated_bytes.graphql: no component values without allocation tracing', async () => {
  assert.equal(await first('component_allocated_bytes', 'componentAllocatedBytes'), []);
});

test('the throughput documents: every component, nothing moved on an idle pipeline', async () => {
  const zero = (ids: string[]) => ids.map((componentId) => ({ componentId, throughput: 0 }));
  assert.equal(
    await first('component_received_events_throughputs', 'componentReceivedEventsThroughputs'),
    zero(['evens', 'in', 'rest', 'split', 'tag']),
  );
  // Svc keeps a received-bytes counter for every component (at 0 but for sources).
  const bytes = await first('component_received_bytes_throughputs', 'componentReceivedBytesThroughputs');
  assert.ok(bytes.some((item: any) => item.componentId === 'in'));
  assert.equal(bytes, zero(bytes.map((item: any) => item.componentId)));
  assert.equal(await first('component_sent_bytes_throughputs', 'componentSentBytesThroughputs'), zero(['evens']));
  const sent = await first('component_sent_events_throughputs', 'componentSentEventsThroughputs');
  const outputs = (ids: string[]) => ids.map((outputId) => ({ outputId, throughput: 0 }));
  assert.equal(
    sent.filter((item: any) => item.componentId !== 'evens' && item.componentId !== 'rest'),
    [
      { componentId: 'in', outputs: outputs(['_default']), throughput: 0 },
      { componentId: 'split', outputs: outputs(['_unmatched', 'even', 'odd']), throughput: 0 },
      { componentId: 'tag', outputs: outputs(['_default']), throughput: 0 },
    ],
  );
});

test('subscriptions/heartbeat.graphql and uptime.graphql', async () => {
  const beat = await first('heartbeat', 'heartbeat');
  assert.ok(!Number.isNaN(Date.parse(beat.utc)));
  const [uptime] = await firstResults(api.ws, document('subscriptions/uptime.graphql'), {}, 1);
  assert.ok(uptime.data.uptime.seconds > 0);
});

test('subscriptions/component_added.graphql and component_removed.graphql, on a topology that changes', async () => {
  // The service does not reload yet, so its topology never changes: the documents run on the schema itself.
  const context = testContext([component({ id: 'in', kind: 'source', type: 'stdin' })]);
  const added = await subscription(context, document('subscriptions/component_added.graphql'));
  const removed = await subscription(context, document('subscriptions/component_removed.graphql'));
  try {
    const sink = component({ id: 'out', kind: 'sink', type: 'console', inputs: ['in'] });
    context.topology = [...context.topology, sink];
    context.componentChanges.emit('change', { change: 'added', component: sink });
    context.topology = context.topology.filter((item) => item !== sink);
    context.componentChanges.emit('change', { change: 'removed', component: sink });
    assert.equal(await added.next(), {
      data: { componentAdded: { __typename: 'Sink', componentId: 'out', componentType: 'console' } },
    });
    assert.equal(await removed.next(), { data: { componentRemoved: { __typename: 'Sink', componentId: 'out' } } });
  } finally {
    await added.close();
    await removed.close();
  }
});

/** The errors a subscription ends with: in its result (execution), or as graphql-ws's `error` (validation). */
async function subscriptionErrors(text: string, variables: Record<string, unknown>): Promise<string[]> {
  try {
    const [result] = await firstResults(api.ws, text, variables, 1);
    return (result.errors ?? []).map((error: { message: string }) => error.message);
  } catch (error) {
    return (JSON.parse((error as Error).message) as Array<{ message: string }>).map((item) => item.message);
  }
}

test('subscriptions/processed_bytes_throughput.graphql: a field Vector 0.54 no longer has, an error as there', async () => {
  assert.equal(
    await subscriptionErrors(document('subscriptions/processed_bytes_throughput.graphql'), { interval: 100 }),
    [
      'Cannot query field "processedBytesThroughput" on type "Subscription". Did you mean "receivedEventsThroughput", "componentSentBytesThroughputs", or "sentEventsThroughput"?',
    ],
  );
});

test('counters moving under the subscriptions: throughputs add up to what was fed, totals follow', async () => {
  const more = `${[8, 10, 11, 12].map((n) => `{"n":${n}}\n`).join('')}`;
  let fed = false;
  const split = (result: any) =>
    result.data.componentReceivedEventsThroughputs.find((item: any) => item.componentId === 'split')?.throughput ?? 0;
  const throughputs = await resultsUntil(
    api.ws,
    document('subscriptions/component_received_events_throughputs.graphql'),
    { interval: 50 },
    (results) => {
      // Fed once the subscription runs, so its first tick saw the old totals.
      if (!fed) api.run.child.stdin!.write(more);
      fed = true;
      return results.reduce((sum, result) => sum + split(result), 0) >= 4;
    },
  );
  assert.is(
    throughputs.reduce((sum, result) => sum + split(result), 0),
    4,
  );
  await until(
    '{ componentByComponentKey(componentId: "evens") { ... on Sink { metrics { receivedEventsTotal { receivedEventsTotal } } } } }',
    (data) => data.componentByComponentKey.metrics.receivedEventsTotal.receivedEventsTotal === 6,
  );
  const list = await first('component_sent_events_totals', 'componentSentEventsTotals');
  const splitTotals = list.find((item: any) => item.componentId === 'split');
  assert.equal(splitTotals.metric, { sentEventsTotal: 11 });
  assert.equal(splitTotals.outputs, [
    { outputId: '_unmatched', sentEventsTotal: { sentEventsTotal: 1 } },
    { outputId: 'even', sentEventsTotal: { sentEventsTotal: 6 } },
    { outputId: 'odd', sentEventsTotal: { sentEventsTotal: 4 } },
  ]);
});

test('bad input: errors in the response, and the instance goes on', async () => {
  const malformed = await query(api.base, '{ components { edges { node { componentId } }');
  assert.is(malformed.status, 200);
  assert.match(malformed.body.errors![0]!.message, /^Syntax Error: Expected Name, found <EOF>/);
  const unknown = await query(api.base, '{ components { edges { node { componentId nope } } } }');
  assert.match(unknown.body.errors![0]!.message, /Cannot query field "nope" on type "Component"/);
  const badPage = await query(api.base, '{ sources(first: -3) { totalCount } }');
  assert.equal(badPage.body, {
    errors: [
      {
        message: 'The "first" parameter must be a non-negative number',
        locations: [{ line: 1, column: 3 }],
        path: ['sources'],
      },
    ],
    data: null,
  });
  const badFilter = await query(
    api.base,
    '{ components(filter: { componentKind: [{ equals: PIPE }] }) { totalCount } }',
  );
  assert.match(badFilter.body.errors![0]!.message, /Value "PIPE" does not exist in "ComponentKind" enum/);
  const sentTotals = document('subscriptions/component_sent_events_totals.graphql');
  assert.equal(await subscriptionErrors(sentTotals, { interval: 5 }), [
    'interval must be an integer of at least 10 ms, got 5',
  ]);
  assert.equal(await subscriptionErrors(sentTotals, { interval: 60001 }), [
    'interval must be at most 60000 ms, got 60001',
  ]);
  assert.equal(
    await subscriptionErrors(document('subscriptions/component_errors_totals.graphql'), { interval: 'often' }),
    ['Variable "$interval" got invalid value "often"; Int cannot represent non-integer value: "often"'],
  );
  assert.equal((await query(api.base, document('queries/health.graphql'))).body, { data: { health: true } });
  assert.is(api.run.child.exitCode, null);
});

test.run();
