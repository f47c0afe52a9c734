// The tap hub on its own: what its patterns select (outputs, inputs as the outputs feeding them), the first
// events of a batch up to the quota, claims of batches on their way, and detaching (the hub goes idle).

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeBatch } from '../../../abi/batch.js';
import { decode } from '../../../abi/codec.js';
import type { Graph } from '../../../host/topology/graph.js';
import { TapHub, type TappedEvent, type Tap, type TapItem } from '../../../host/topology/tap.js';

// in → t (outputs: default and `dropped`) → out
const graph = {
  components: new Map([
    ['in', { id: 'in', kind: 'source', type: 'stdin' }],
    ['t', { id: 't', kind: 'transform', type: 'remap' }],
    ['out', { id: 'out', kind: 'sink', type: 'blackhole' }],
  ]),
  ports: new Map([
    ['in', [{ name: undefined, kinds: ['log'] }]],
    [
      't',
      [
        { name: undefined, kinds: ['log'] },
        { name: 'dropped', kinds: ['log'] },
      ],
    ],
  ]),
  edges: [
    { from: 'in', output: undefined, to: 't' },
    { from: 't', output: undefined, to: 'out' },
  ],
  order: ['t', 'out'],
  warnings: [],
} as unknown as Graph;

const hub = () => new TapHub(graph, { timezone: 'UTC', messageKey: '.message', timestampKey: '.timestamp' });
const batch = (...messages: string[]) => {
  const bytes = encodeBatch(
    messages.map((message) => ({ event: { message } })),
    0,
  );
  return { bytes, count: messages.length };
};

// A tap's timer does not keep the process alive (the API's server does); this does, for the tests.
const alive = setInterval(() => {}, 1000);
test.after(() => clearInterval(alive));

async function nextList(tap: Tap): Promise<TapItem[]> {
  return (await tap[Symbol.asyncIterator]().next()).value as TapItem[];
}

const messages = (items: TapItem[]) => items.map((item) => decode((item as TappedEvent).message()!) as string);

test('outputs and inputs patterns select output ids; the hub is active only while a tap is attached', async () => {
  const taps = hub();
  assert.is(taps.active, false);
  const tap = taps.attach({ outputsPatterns: ['t*'], inputsPatterns: ['out'], interval: 20, limit: 10 });
  assert.equal([...tap.outputs].sort(), ['t', 't.dropped']);
  assert.is(taps.active, true);
  assert.is((await nextList(tap))[0]!.constructor, Object);
  await tap[Symbol.asyncIterator]().return!();
  assert.is(taps.active, false);
  assert.is(taps.claim('t', 1), false);
});

test("an event that is not an object (Vector's log namespace) is its own message", async () => {
  const taps = hub();
  const tap = taps.attach({ outputsPatterns: ['in'], inputsPatterns: [], interval: 20, limit: 5 });
  const items = tap[Symbol.asyncIterator]();
  await items.next(); // Matched 'in'
  const vector = { vector: { source_type: 'stdin' } };
  taps.offer('in', {
    bytes: encodeBatch(
      [
        { metadata: vector, event: 'the line' },
        { metadata: vector, event: { message: 'a field' } },
      ],
      0,
    ),
    count: 2,
  });
  assert.equal(messages((await items.next()).value as TapItem[]), ['the line', 'a field']);
  await items.return!();
});

test('a tap takes the first events up to its limit per interval, from every output it samples', async () => {
  const taps = hub();
  const tap = taps.attach({ outputsPatterns: ['in', 't'], inputsPatterns: [], interval: 30, limit: 3 });
  const items = tap[Symbol.asyncIterator]();
  await items.next(); // Matched 'in'
  await items.next(); // Matched 't'
  taps.offer('in', batch('a', 'b'));
  taps.offer('t', batch('c', 'd'));
  taps.offer('in', batch('e'));
  const list = (await items.next()).value as TapItem[];
  assert.equal(messages(list), ['a', 'b', 'c']);
  assert.equal(
    list.map((item) => (item as TappedEvent).component.id),
    ['in', 'in', 't'],
  );
  // The quota starts over with the next interval.
  taps.offer('t', batch('f'));
  assert.equal(messages((await items.next()).value as TapItem[]), ['f']);
  await items.return!();
});

test('claims: a batch on its way counts toward the quota, so later ones keep the fast path', async () => {
  const taps = hub();
  const tap = taps.attach({ outputsPatterns: ['t'], inputsPatterns: [], interval: 10_000, limit: 2 });
  assert.is(taps.claim('t', 1), true);
  assert.is(taps.claim('t', 5), true);
  assert.is(taps.claim('t', 1), false);
  assert.is(taps.claim('in', 1), false);
  // What arrives is still taken, up to the limit.
  taps.offer('t', batch('x', 'y', 'z'));
  assert.is(taps.claim('t', 1), false);
  await tap[Symbol.asyncIterator]().return!();
});

test('a batch encoded for a sink is not sampled', async () => {
  const taps = hub();
  const tap = taps.attach({ outputsPatterns: ['t'], inputsPatterns: [], interval: 20, limit: 5 });
  const items = tap[Symbol.asyncIterator]();
  await items.next();
  taps.offer('t', { ...batch('encoded'), encoded: true });
  taps.offer('t', batch('plain'));
  assert.equal(messages((await items.next()).value as TapItem[]), ['plain']);
  await items.return!();
});

test('a reload: patterns are matched again, and a tap hears of each one that now matches or no longer does', async () => {
  const taps = hub();
  const tap = taps.attach({ outputsPatterns: ['late', 't'], inputsPatterns: [], interval: 20, limit: 10 });
  const items = tap[Symbol.asyncIterator]();
  const kinds = async (count: number) => {
    const got: string[] = [];
    for (let i = 0; i < count; i++) {
      const [item] = (await items.next()).value as TapItem[];
      got.push(`${(item as { kind: string }).kind} ${(item as { pattern: string }).pattern}`);
    }
    return got;
  };
  assert.equal(await kinds(2), ['matched t', 'notMatched late']);
  // `late` is added after `t`, which is removed.
  const reloaded = {
    ...graph,
    components: new Map([
      ['in', { id: 'in', kind: 'source', type: 'stdin' }],
      ['late', { id: 'late', kind: 'transform', type: 'filter' }],
      ['out', { id: 'out', kind: 'sink', type: 'blackhole' }],
    ]),
    ports: new Map([
      ['in', [{ name: undefined, kinds: ['log'] }]],
      ['late', [{ name: undefined, kinds: ['log'] }]],
    ]),
    edges: [
      { from: 'in', output: undefined, to: 'late' },
      { from: 'late', output: undefined, to: 'out' },
    ],
  } as unknown as Graph;
  taps.update(reloaded);
  assert.equal(await kinds(2), ['matched late', 'notMatched t']);
  assert.equal([...tap.outputs], ['late']);
  taps.offer('late', batch('x'));
  assert.equal(messages((await items.next()).value as TapItem[]), ['x']);
  await items.return!();
});

test.run();
