import { test } from 'uvu';
import * as assert from 'uvu/assert';
import reduce, { createReduce } from '../../../../host/components/transforms/reduce.js';
import type { TransformResult, TransformRunner } from '../../../../host/components/component.js';
import type { EventBatch } from '../../../../host/topology/batch.js';
import { decodeBatch, encodeBatch } from '../../../../abi/batch.js';
import { Timestamp } from '../../../../abi/values.js';
import { batchOf, eventsOf } from '../../support/components.js';
import { componentEnv } from '../../support/env.js';

/** A reduce runner from raw options, on a clock the test sets. */
async function reducer(raw: unknown) {
  const clock = { now: 0 };
  const plan = await reduce.prepare(reduce.options.parse(raw), componentEnv(reduce, 'r'));
  const runner = await createReduce(structuredClone(plan), () => clock.now);
  return { runner, clock };
}

/** The events of a result's one output. */
const out = (result: TransformResult) => eventsOf(result.outputs[0]!.batch);

const ts = (seconds: number) => new Timestamp(BigInt(seconds) * 1_000_000_000n);

test('a multi-line transaction is merged by group_by until ends_when, across batches, as Vector does', async () => {
  const { runner } = await reducer({ group_by: ['request_id'], ends_when: 'exists(.test_end)' });
  const first = runner.process(
    batchOf([
      { message: 'test message 1', counter: 1, request_id: '1', timestamp: ts(10) },
      { message: 'test message 2', counter: 2, request_id: '2', timestamp: ts(11) },
      { message: 'test message 3', counter: 3, request_id: '1', timestamp: ts(12) },
    ]),
  );
  assert.is(first.outputs[0]!.batch.count, 0);
  const second = runner.process(
    batchOf([
      { message: 'test message 4', counter: 4, request_id: '1', test_end: 'yep', timestamp: ts(13) },
      { message: 'test message 5', counter: 5, request_id: '2', extra_field: 'value1', test_end: 'yep' },
    ]),
  );
  // Numbers summed, strings kept from the first event, timestamps give `timestamp` and `timestamp_end`.
  assert.equal(out(second), [
    {
      message: 'test message 1',
      counter: 8n,
      request_id: '1',
      test_end: 'yep',
      timestamp: ts(10),
      timestamp_end: ts(13),
    },
    {
      message: 'test message 2',
      counter: 7n,
      request_id: '2',
      extra_field: 'value1',
      test_end: 'yep',
      timestamp: ts(11),
      timestamp_end: ts(11),
    },
  ]);
  // Nothing left.
  assert.is(runner.flush!(true).outputs[0]!.batch.count, 0);
});

test('events without a group_by field form a group of their own; the reduced event has no metadata', async () => {
  const { runner } = await reducer({ group_by: ['request_id'], ends_when: 'exists(.test_end)' });
  const result = runner.process(
    batchOf([
      { message: 'test message 1', counter: 1, request_id: '1' },
      { message: 'test message 2', counter: 2 },
      { message: 'test message 3', counter: 3, request_id: '1' },
      { message: 'test message 4', counter: 4, request_id: '1', test_end: 'yep' },
      { message: 'test message 5', counter: 5, extra_field: 'value1', test_end: 'yep' },
    ]),
  );
  assert.equal(out(result), [
    { message: 'test message 1', counter: 8n, request_id: '1', test_end: 'yep' },
    { message: 'test message 2', counter: 7n, extra_field: 'value1', test_end: 'yep' },
  ]);
  assert.equal(
    decodeBatch(result.outputs[0]!.batch.bytes).events.map((event) => event.metadata),
    [{}, {}],
  );
});

test('merge strategies: each combines a field as Vector does; a value a strategy cannot take is left out with a warning', async () => {
  const { runner } = await reducer({
    merge_strategies: {
      concat: 'concat',
      concat_array: 'concat',
      newline: 'concat_newline',
      raw: 'concat_raw',
      array: 'array',
      discard: 'discard',
      retain: 'retain',
      sum: 'sum',
      max: 'max',
      min: 'min',
      shortest: 'shortest_array',
      longest: 'longest_array',
      unique: 'flat_unique',
      nested: 'discard',
      '%meta': 'retain',
    },
  });
  const processed = runner.process(
    batchOf([
      {
        concat: 'a',
        concat_array: [1],
        newline: 'a',
        raw: 'a',
        array: 'first',
        discard: 1,
        retain: 1,
        sum: 1,
        max: 2,
        min: 2,
        shortest: [1, 2],
        longest: [1, 2],
        unique: [1, 'x'],
        nested: { a: 1, b: { c: 2 } },
        summed: 1.5,
      },
      {
        concat: 'b',
        concat_array: [2, 3],
        newline: 'b',
        raw: 'b',
        array: 2,
        discard: 2,
        retain: 2,
        sum: 2.5,
        max: 3.5,
        min: 1,
        shortest: [1],
        longest: [1, 2, 3],
        unique: { k: 'x', l: 'y' },
        nested: { a: 2 },
        summed: 2,
      },
      {
        concat: 10,
        concat_array: 'four',
        newline: 'c',
        raw: 'c',
        array: ['third'],
        retain: null,
        sum: 'not number',
        max: 3,
        min: 1.5,
        shortest: 'not an array',
        longest: [],
        unique: 1,
      },
    ]),
  );
  const result = runner.flush!(true);
  assert.equal(out(result), [
    {
      concat: 'a b',
      concat_array: [1n, 2n, 3n, 'four'],
      newline: 'a\nb\nc',
      raw: 'abc',
      array: ['first', 2n, ['third']],
      discard: 1n,
      retain: 2n,
      sum: 3.5,
      max: 3.5,
      min: 1n,
      shortest: [1n],
      longest: [1n, 2n, 3n],
      unique: [1n, 'x', 'y'],
      nested: { a: 1n, b: { c: 2n } },
      summed: 3.5,
    },
  ]);
  assert.equal(processed.warnings, [
    { message: 'Failed to merge value.', fields: { error: "expected string value, found: '10'" } },
    { message: 'Failed to merge value.', fields: { error: "expected numeric value, found: 'not number'" } },
    { message: 'Failed to merge value.', fields: { error: "expected array value, found: 'not an array'" } },
  ]);
});

test('a strategy that cannot start from the first value waits for one it can; a metadata strategy fills the metadata', async () => {
  const { runner } = await reducer({ merge_strategies: { n: 'sum', '%trace': 'concat' } });
  const batch = {
    bytes: encodeBatch(
      [
        { kind: 'log', metadata: { trace: 'a', other: 1 }, event: { n: 'x' } },
        { kind: 'log', metadata: {}, event: { n: 2 } },
        { kind: 'log', metadata: { trace: 'b' }, event: { n: 3 } },
      ],
      0,
    ),
    count: 3,
  };
  const processed = runner.process(batch);
  assert.equal(processed.warnings, [
    { message: 'Failed to create value merger.', fields: { error: "expected number value, found: 'x'", path: '.n' } },
  ]);
  const result = runner.flush!(true);
  assert.equal(decodeBatch(result.outputs[0]!.batch.bytes).events, [
    { kind: 'log', metadata: { trace: 'a b' }, event: { n: 5n } },
  ]);
});

test('a number merged with a short value of another type is warned about, and the batch goes on', async () => {
  // Such a value's encoding is shorter than a number's: read as one where it ends its batch (a batch from
  // another thread has a buffer of its own size), it failed the whole batch before.
  const { runner } = await reducer({});
  const alone = (event: object) => {
    const batch = batchOf([event]);
    return { ...batch, bytes: new Uint8Array(batch.bytes) };
  };
  const warnings = [{ n: 1 }, { n: 's' }, { n: true }, { n: null }, { n: 2 }].flatMap(
    (event) => runner.process(alone(event)).warnings?.map((warning) => warning.fields?.error) ?? [],
  );
  assert.equal(warnings, [
    "expected numeric value, found: 's'",
    "expected numeric value, found: 'true'",
    "expected numeric value, found: 'null'",
  ]);
  assert.equal(eventsOf(runner.flush!(true).outputs[0]!.batch), [{ n: 3n }]);
});

test('fields merge by name whatever their order and depth in each event, and when the names are data', async () => {
  const { runner } = await reducer({ merge_strategies: { 'a.s': 'concat' } });
  runner.process(
    batchOf([
      { n: 1, a: { s: 'x', m: 2, deep: { q: 1 } }, t: 'first' },
      { a: { deep: { q: 2 }, s: 'y', m: 3 }, t: 'second', n: 10 },
    ]),
  );
  runner.process(batchOf([{ t: 'third', a: { m: 4 }, extra: [1], n: 100 }, { n: 1000 }]));
  assert.equal(eventsOf(runner.flush!(true).outputs[0]!.batch), [
    { n: 1111n, a: { s: 'x y', m: 9n, deep: { q: 3n } }, t: 'first', extra: [1n] },
  ]);

  // Each event its own field name: more names than a reduce keeps, so it starts them over on the way.
  const { runner: wide } = await reducer({});
  const events = Array.from({ length: 12_000 }, (_, i) => ({ [`k${i}`]: i, n: 1 }));
  for (let i = 0; i < events.length; i += 1000) wide.process(batchOf(events.slice(i, i + 1000)));
  const [merged] = eventsOf(wide.flush!(true).outputs[0]!.batch) as Array<Record<string, unknown>>;
  assert.is(Object.keys(merged!).length, 12_001);
  assert.is(merged!.n, 12_000n);
  assert.is(merged!.k11999, 11_999n);
});

test('starts_when flushes the previous transaction without the event, which starts the next', async () => {
  const { runner } = await reducer({
    group_by: ['id'],
    starts_when: 'starts_with(string!(.message), "BEGIN")',
    merge_strategies: { message: 'concat_newline' },
  });
  const result = runner.process(
    batchOf([
      { id: 'a', message: 'BEGIN a' },
      { id: 'a', message: 'a.1' },
      { id: 'b', message: 'BEGIN b' },
      { id: 'a', message: 'BEGIN c' },
      { id: 'a', message: 'c.1' },
    ]),
  );
  assert.equal(out(result), [{ id: 'a', message: 'BEGIN a\na.1' }]);
  assert.equal(out(runner.flush!(true)), [
    { id: 'b', message: 'BEGIN b' },
    { id: 'a', message: 'BEGIN c\nc.1' },
  ]);
});

test('max_events ends a group with the event that reaches it; 1 passes every event alone', async () => {
  const { runner } = await reducer({
    group_by: ['id'],
    max_events: 3,
    merge_strategies: { id: 'retain', message: 'array' },
  });
  const events = [1, 2, 3, 4, 5].map((n) => ({ id: 'a', message: `m${n}` }));
  assert.equal(out(runner.process(batchOf(events))), [{ id: 'a', message: ['m1', 'm2', 'm3'] }]);
  assert.equal(out(runner.flush!(true)), [{ id: 'a', message: ['m4', 'm5'] }]);

  const { runner: single } = await reducer({ max_events: 1, merge_strategies: { message: 'array' } });
  assert.equal(out(single.process(batchOf(events.slice(0, 2)))), [
    { id: 'a', message: ['m1'] },
    { id: 'a', message: ['m2'] },
  ]);
});

test('a group not updated for expire_after_ms leaves at the next flush, counted in stale_events_flushed_total', async () => {
  const { runner, clock } = await reducer({ group_by: ['id'], expire_after_ms: 100 });
  runner.process(batchOf([{ id: 'a', n: 1 }]));
  clock.now = 50;
  runner.process(
    batchOf([
      { id: 'b', n: 1 },
      { id: 'a', n: 2 },
    ]),
  );
  clock.now = 149;
  assert.equal(runner.flush!(false).outputs[0]!.batch.count, 0);
  clock.now = 150;
  const result = runner.flush!(false);
  // Group a was updated at 50 too: both expire at 150.
  assert.equal(out(result), [
    { id: 'a', n: 3n },
    { id: 'b', n: 1n },
  ]);
  assert.equal(result.counters, [{ name: 'stale_events_flushed_total', count: 2 }]);
});

test('end_every_period_ms flushes a group that began that long ago however recently it was updated', async () => {
  const { runner, clock } = await reducer({ end_every_period_ms: 100 });
  runner.process(batchOf([{ n: 1 }]));
  clock.now = 99;
  runner.process(batchOf([{ n: 2 }]));
  assert.equal(runner.flush!(false).outputs[0]!.batch.count, 0);
  clock.now = 100;
  assert.equal(out(runner.flush!(false)), [{ n: 3n }]);
});

test('at the end every open group is flushed, not counted as stale', async () => {
  const { runner } = await reducer({ group_by: ['id'] });
  runner.process(batchOf([{ id: 'a' }, { id: 'b' }, { id: 'a' }]));
  const result = runner.flush!(true);
  assert.equal(out(result), [{ id: 'a' }, { id: 'b' }]);
  assert.equal(result.counters, []);
});

test('tickets: an input whose events a group keeps is retained until the merged event leaves, which carries every merged input', async () => {
  const { runner } = await reducer({ group_by: ['id'], ends_when: 'exists(.end)' });
  const ticketed = (events: unknown[], ticket: number): EventBatch => ({ ...batchOf(events), ticket });
  const first = runner.process(ticketed([{ id: 1 }, { id: 2 }], 1));
  assert.is(first.retains, true);
  const second = runner.process(
    ticketed(
      [
        { id: 1, end: true },
        { id: 3, end: true },
      ],
      2,
    ),
  );
  // Group 1 (tickets 1 and 2) and group 3 (ticket 2) leave; group 2 still holds ticket 1.
  assert.equal(second.outputs[0]!.tickets, [1, 2]);
  assert.is(second.retains, false);
  assert.equal(second.releases, []);
  const third = runner.process(ticketed([{ id: 2, end: true }], 3));
  assert.equal(third.outputs[0]!.tickets, [1, 3]);
  assert.equal(third.releases, [1]);
  assert.is(third.retains, false);
  // A batch without a ticket (no finalizer) names none.
  runner.process(batchOf([{ id: 4 }]));
  const flushed = runner.flush!(true);
  assert.equal(flushed.outputs[0]!.tickets, []);
  assert.equal(flushed.releases, []);
});

test('options: only one of starts_when and ends_when; merge strategy paths without indexes; Vector defaults', async () => {
  const problems = (raw: unknown) =>
    reduce.options.safeParse(raw).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  assert.equal(problems({ starts_when: '.a == 1', ends_when: '.b == 1' }), [
    ': only one of `ends_when` and `starts_when` can be provided',
  ]);
  assert.equal(problems({ merge_strategies: { 'a[0]': 'sum' } }), [
    'merge_strategies.a[0]: Merge strategies with indexes are currently not supported. Path: `a[0]`',
  ]);
  assert.ok(problems({ merge_strategies: { a: 'avg' } }));
  assert.ok(problems({ max_events: 0 }));
  assert.equal(reduce.options.parse({}), {
    expire_after_ms: 30000,
    flush_period_ms: 1000,
    group_by: [],
    merge_strategies: {},
  });
  assert.is(reduce.flushPeriodMs!(reduce.options.parse({ flush_period_ms: 250 })), 250);
});

test('a condition that fails counts as not matching and is reported', async () => {
  const { runner } = await reducer({ ends_when: 'to_int!(.n) > 1' });
  const result = runner.process(batchOf([{ n: 'x' }, { n: 2 }]));
  assert.equal(out(result), [{ n: 'x' }]);
  assert.is(result.errors!.length, 1);
  assert.is(result.errors![0]!.errorType, 'script_failed');
});

test('reduce runs as a registered transform runner', async () => {
  const runner: TransformRunner = await reduce.create(
    await reduce.prepare(reduce.options.parse({}), componentEnv(reduce, 'r')),
  );
  runner.process(batchOf([{ n: 1 }, { n: 2 }]));
  assert.equal(out(runner.flush!(true)), [{ n: 3n }]);
});

test.run();
