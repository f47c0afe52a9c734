// The metric subscriptions on a registry the test fills between ticks: which components each tick sends,
// with which sums and changes, and the interval bounds.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { MetricSample } from '../../../../host/telemetry/metrics.js';
import { component, subscription, testContext, type TestContext } from './context.js';

const INTERVAL = 10;

function context(): TestContext {
  return testContext([
    component({ id: 'in', kind: 'source', type: 'stdin' }),
    component({
      id: 'split',
      kind: 'transform',
      type: 'route',
      inputs: ['in'],
      outputs: ['a', 'b'],
      defaultOutput: false,
    }),
    component({ id: 'out', kind: 'sink', type: 'file', inputs: ['split'] }),
  ]);
}

const tags = (id: string, extra: Record<string, string> = {}) => ({
  component_id: id,
  component_kind: 'x',
  component_type: 'y',
  ...extra,
});

/** Each component's value of `field` in a list of `{ componentId, metric }`. */
const totals = (list: any[], field: string) => list.map((item) => [item.componentId, item.metric[field]]);

test('component totals: the components above zero first, then those whose sum changed', async () => {
  const ctx = context();
  const received = ctx.metrics.counter('component_received_events_total', tags('in'));
  received.increment(5);
  const splitReceived = ctx.metrics.counter('component_received_events_total', tags('split'));
  const sub = await subscription(
    ctx,
    `subscription { componentReceivedEventsTotals(interval: ${INTERVAL}) { componentId metric { receivedEventsTotal timestamp } } }`,
  );
  try {
    const first = (await sub.next()).data.componentReceivedEventsTotals;
    assert.equal(totals(first, 'receivedEventsTotal'), [['in', 5]]);
    assert.ok(!Number.isNaN(Date.parse(first[0].metric.timestamp)));
    splitReceived.increment(2);
    assert.equal(totals((await sub.next()).data.componentReceivedEventsTotals, 'receivedEventsTotal'), [['split', 2]]);
    assert.equal((await sub.next()).data.componentReceivedEventsTotals, []);
    received.increment(1);
    splitReceived.increment(1);
    assert.equal(totals((await sub.next()).data.componentReceivedEventsTotals, 'receivedEventsTotal'), [
      ['in', 6],
      ['split', 3],
    ]);
  } finally {
    await sub.close();
  }
});

test('component totals of bytes and errors read their own series, summed over their tags', async () => {
  const ctx = context();
  ctx.metrics.counter('component_received_bytes_total', tags('in')).increment(100);
  ctx.metrics.counter('component_sent_bytes_total', tags('out')).increment(70);
  ctx.metrics
    .counter('component_errors_total', tags('in', { error_type: 'parser_failed', stage: 'processing' }))
    .increment(2);
  ctx.metrics
    .counter('component_errors_total', tags('in', { error_type: 'reading_failed', stage: 'receiving' }))
    .increment(1);
  ctx.metrics
    .counter('component_errors_total', tags('split', { error_type: 'condition_failed', stage: 'processing' }))
    .increment(4);
  const first = async (field: string, value: string) => {
    const sub = await subscription(
      ctx,
      `subscription { ${field}(interval: ${INTERVAL}) { componentId metric { ${value} } } }`,
    );
    try {
      return totals((await sub.next()).data[field], value);
    } finally {
      await sub.close();
    }
  };
  assert.equal(await first('componentReceivedBytesTotals', 'receivedBytesTotal'), [['in', 100]]);
  assert.equal(await first('componentSentBytesTotals', 'sentBytesTotal'), [['out', 70]]);
  assert.equal(await first('componentErrorsTotals', 'errorsTotal'), [
    ['in', 3],
    ['split', 4],
  ]);
});

test('component throughputs: from the second tick, every component with its change per interval', async () => {
  const ctx = context();
  const received = ctx.metrics.counter('component_received_events_total', tags('in'));
  received.increment(5);
  ctx.metrics.counter('component_received_events_total', tags('out')).increment(3);
  const sub = await subscription(
    ctx,
    `subscription { componentReceivedEventsThroughputs(interval: ${INTERVAL}) { componentId throughput } }`,
  );
  try {
    assert.equal((await sub.next()).data.componentReceivedEventsThroughputs, [
      { componentId: 'in', throughput: 0 },
      { componentId: 'out', throughput: 0 },
    ]);
    received.increment(7);
    assert.equal((await sub.next()).data.componentReceivedEventsThroughputs, [
      { componentId: 'in', throughput: 7 },
      { componentId: 'out', throughput: 0 },
    ]);
    assert.equal((await sub.next()).data.componentReceivedEventsThroughputs, [
      { componentId: 'in', throughput: 0 },
      { componentId: 'out', throughput: 0 },
    ]);
  } finally {
    await sub.close();
  }
});

test('a counter that restarted (its series expired): its new total is sent, its throughput counts from zero', async () => {
  const ctx = context();
  const samples: MetricSample[] = [];
  ctx.metrics.snapshot = () => samples;
  const received = (value: number): MetricSample => ({
    name: 'component_received_events_total',
    tags: tags('in'),
    value: { type: 'counter', value },
    updatedAt: Date.now(),
  });
  samples.push(received(50));
  const throughputs = await subscription(
    ctx,
    `subscription { componentReceivedEventsThroughputs(interval: ${INTERVAL}) { componentId throughput } }`,
  );
  const sums = await subscription(
    ctx,
    `subscription { componentReceivedEventsTotals(interval: ${INTERVAL}) { componentId metric { receivedEventsTotal } } }`,
  );
  try {
    assert.equal((await throughputs.next()).data.componentReceivedEventsThroughputs, [
      { componentId: 'in', throughput: 0 },
    ]);
    assert.equal(totals((await sums.next()).data.componentReceivedEventsTotals, 'receivedEventsTotal'), [['in', 50]]);
    samples.splice(0, 1);
    assert.equal((await throughputs.next()).data.componentReceivedEventsThroughputs, []);
    assert.equal((await sums.next()).data.componentReceivedEventsTotals, []);
    samples.push(received(4));
    assert.equal((await throughputs.next()).data.componentReceivedEventsThroughputs, [
      { componentId: 'in', throughput: 4 },
    ]);
    assert.equal(totals((await sums.next()).data.componentReceivedEventsTotals, 'receivedEventsTotal'), [['in', 4]]);
  } finally {
    await throughputs.close();
    await sums.close();
  }
});

test('sent events totals and throughputs come with their outputs', async () => {
  const ctx = context();
  const a = ctx.metrics.counter('component_sent_events_total', tags('split', { output: 'a' }));
  const b = ctx.metrics.counter('component_sent_events_total', tags('split', { output: 'b' }));
  a.increment(6);
  b.increment(3);
  const sent = await subscription(
    ctx,
    `subscription { componentSentEventsTotals(interval: ${INTERVAL}) { componentId metric { sentEventsTotal } outputs { outputId sentEventsTotal { sentEventsTotal } } } }`,
  );
  const throughputs = await subscription(
    ctx,
    `subscription { componentSentEventsThroughputs(interval: ${INTERVAL}) { componentId throughput outputs { outputId throughput } } }`,
  );
  try {
    const output = (outputId: string, sentEventsTotal: number) => ({ outputId, sentEventsTotal: { sentEventsTotal } });
    assert.equal((await sent.next()).data.componentSentEventsTotals, [
      { componentId: 'split', metric: { sentEventsTotal: 9 }, outputs: [output('a', 6), output('b', 3)] },
    ]);
    assert.equal((await throughputs.next()).data.componentSentEventsThroughputs, [
      {
        componentId: 'split',
        throughput: 0,
        outputs: [
          { outputId: 'a', throughput: 0 },
          { outputId: 'b', throughput: 0 },
        ],
      },
    ]);
    b.increment(2);
    assert.equal((await sent.next()).data.componentSentEventsTotals, [
      { componentId: 'split', metric: { sentEventsTotal: 11 }, outputs: [output('b', 5)] },
    ]);
    assert.equal((await throughputs.next()).data.componentSentEventsThroughputs, [
      {
        componentId: 'split',
        throughput: 2,
        outputs: [
          { outputId: 'a', throughput: 0 },
          { outputId: 'b', throughput: 2 },
        ],
      },
    ]);
    assert.equal((await sent.next()).data.componentSentEventsTotals, []);
  } finally {
    await sent.close();
    await throughputs.close();
  }
});

test('instance-wide totals and throughputs: sums over every component', async () => {
  const ctx = context();
  const received = ctx.metrics.counter('component_received_events_total', tags('in'));
  received.increment(5);
  ctx.metrics.counter('component_received_events_total', tags('out')).increment(2);
  ctx.metrics.counter('component_sent_events_total', tags('in', { output: '_default' })).increment(4);
  ctx.metrics.counter('component_errors_total', tags('split', { error_type: 'x', stage: 'processing' })).increment(1);
  const total = await subscription(
    ctx,
    `subscription { receivedEventsTotal(interval: ${INTERVAL}) { receivedEventsTotal timestamp } }`,
  );
  const throughput = await subscription(ctx, `subscription { receivedEventsThroughput(interval: ${INTERVAL}) }`);
  try {
    assert.is((await total.next()).data.receivedEventsTotal.receivedEventsTotal, 7);
    const pending = throughput.next();
    received.increment(3);
    // The first tick only took the starting total; the next ones send the growth, once there is one.
    assert.equal((await pending).data, { receivedEventsThroughput: 3 });
    assert.is((await total.next()).data.receivedEventsTotal.receivedEventsTotal, 10);
  } finally {
    await total.close();
    await throughput.close();
  }
  const one = async (query: string) => {
    const sub = await subscription(ctx, `subscription { ${query} }`);
    try {
      return (await sub.next()).data;
    } finally {
      await sub.close();
    }
  };
  assert.equal(await one(`sentEventsTotal(interval: ${INTERVAL}) { sentEventsTotal }`), {
    sentEventsTotal: { sentEventsTotal: 4 },
  });
  assert.equal(await one(`errorsTotal(interval: ${INTERVAL}) { errorsTotal }`), { errorsTotal: { errorsTotal: 1 } });
  ctx.metrics.counter('component_sent_events_total', tags('split', { output: 'a' })).increment(1);
  const sent = await subscription(ctx, `subscription { sentEventsThroughput(interval: ${INTERVAL}) }`);
  try {
    const pending = sent.next();
    ctx.metrics.counter('component_sent_events_total', tags('split', { output: 'b' })).increment(6);
    assert.equal((await pending).data, { sentEventsThroughput: 6 });
  } finally {
    await sent.close();
  }
});

test('allocated bytes: no component values without allocation tracing; a gauge is sent whenever it moves', async () => {
  const ctx = context();
  const components = await subscription(
    ctx,
    `subscription { componentAllocatedBytes(interval: ${INTERVAL}) { componentId metric { allocatedBytes } } }`,
  );
  try {
    assert.equal((await components.next()).data.componentAllocatedBytes, []);
    const gauge = ctx.metrics.gauge('component_allocated_bytes', tags('split'));
    gauge.set(100);
    assert.equal((await components.next()).data.componentAllocatedBytes, [
      { componentId: 'split', metric: { allocatedBytes: 100 } },
    ]);
    gauge.set(80);
    assert.equal((await components.next()).data.componentAllocatedBytes, [
      { componentId: 'split', metric: { allocatedBytes: 80 } },
    ]);
  } finally {
    await components.close();
  }
  const total = await subscription(ctx, `subscription { allocatedBytes(interval: ${INTERVAL}) { allocatedBytes } }`);
  try {
    assert.equal((await total.next()).data, { allocatedBytes: { allocatedBytes: 80 } });
  } finally {
    await total.close();
  }
});

test('metrics: the MetricType values, the instance uptime', async () => {
  const sub = await subscription(
    context(),
    `subscription { metrics(interval: ${INTERVAL}) { __typename timestamp ... on Uptime { seconds } } }`,
  );
  try {
    const { metrics } = (await sub.next()).data;
    assert.is(metrics.__typename, 'Uptime');
    assert.ok(metrics.seconds >= 0);
    assert.ok(!Number.isNaN(Date.parse(metrics.timestamp)));
  } finally {
    await sub.close();
  }
});

test('an interval outside 10..60000 ms is an error of the subscription', async () => {
  const refusals: Array<[number, string]> = [
    [0, 'interval must be an integer of at least 10 ms, got 0'],
    [9, 'interval must be an integer of at least 10 ms, got 9'],
    [60001, 'interval must be at most 60000 ms, got 60001'],
  ];
  for (const [interval, message] of refusals) {
    for (const field of [
      'componentSentEventsTotals { componentId }',
      'receivedEventsThroughput',
      'metrics { timestamp }',
    ]) {
      const [name] = field.split(' ');
      const failure = await subscription(
        context(),
        `subscription { ${name}(interval: ${interval})${field.slice(name!.length)} }`,
      ).then(
        () => undefined,
        (error: Error) => error.message,
      );
      assert.is(failure, message);
    }
  }
});

test.run();
