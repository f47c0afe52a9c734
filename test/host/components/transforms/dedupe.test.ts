import { test } from 'uvu';
import * as assert from 'uvu/assert';
import dedupe, { createDedupe } from '../../../../host/components/transforms/dedupe.js';
import { batchOf, eventsOf, runnerOf } from '../../support/components.js';
import { componentEnv } from '../../support/env.js';

test('dedupe drops events whose matched fields were seen among the last num_events', async () => {
  const { runner } = await runnerOf(dedupe, { fields: { match: ['a'] }, cache: { num_events: 2 } });
  const result = runner.process(
    batchOf([{ a: 1, b: 1 }, { a: 1, b: 2 }, { a: 1.5 }, { a: null }, {}, { a: 2 }, { a: 3 }, { a: 1 }]),
  );
  // null and missing differ; a=1 was evicted by 2 and 3 before it came back.
  assert.equal(eventsOf(result.outputs[0]!.batch), [
    { a: 1n, b: 1n },
    { a: 1.5 },
    { a: null },
    {},
    { a: 2n },
    { a: 3n },
    { a: 1n },
  ]);
  assert.equal(result.discarded, [
    { count: 1, intentional: true, reason: 'Events have been found in cache for deduplication.' },
  ]);
});

test('dedupe keeps the last num_events keys, a repeat making its key the newest, across batches and many evictions', async () => {
  const { runner } = await runnerOf(dedupe, { fields: { match: ['k'] }, cache: { num_events: 50 } });
  // A plain LRU list: index 0 is the oldest key.
  const lru: number[] = [];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let batch = 0; batch < 40; batch++) {
    const keys = Array.from({ length: 250 }, () => Math.floor(random() * 120));
    const expected = keys.filter((k) => {
      const at = lru.indexOf(k);
      if (at >= 0) lru.splice(at, 1);
      lru.push(k);
      if (lru.length > 50) lru.shift();
      return at < 0;
    });
    const kept = eventsOf(runner.process(batchOf(keys.map((k) => ({ k })))).outputs[0]!.batch);
    assert.equal(
      kept.map((event) => Number((event as { k: bigint }).k)),
      expected,
      `batch ${batch}`,
    );
  }
});

test('dedupe defaults to timestamp, host and message; ignore compares all other fields', async () => {
  const { runner: byDefault } = await runnerOf(dedupe, {});
  assert.is(
    byDefault.process(
      batchOf([
        { message: 'x', other: 1 },
        { message: 'x', other: 2 },
      ]),
    ).outputs[0]!.batch.count,
    1,
  );
  const { runner } = await runnerOf(dedupe, { fields: { ignore: ['id', 'meta.seq'] } });
  const events = [
    { id: 1, v: 'x', meta: { seq: 1, h: 'a' } },
    { id: 2, v: 'x', meta: { seq: 2, h: 'a' } },
    { id: 3, v: 'x', meta: { seq: 3, h: 'b' } },
  ];
  assert.equal(
    (eventsOf(runner.process(batchOf(events)).outputs[0]!.batch) as Array<{ id: bigint }>).map((event) => event.id),
    [1n, 3n],
  );
});

test('dedupe time_settings.max_age_ms lets a duplicate through again once it is old', async () => {
  let time = 0;
  const plan = await dedupe.prepare(
    dedupe.options.parse({ fields: { match: ['a'] }, time_settings: { max_age_ms: 100 } }),
    componentEnv(dedupe, 'd'),
  );
  const runner = createDedupe(plan, () => time);
  assert.is(runner.process(batchOf([{ a: 1 }, { a: 1 }])).outputs[0]!.batch.count, 1);
  time = 99;
  assert.is(runner.process(batchOf([{ a: 1 }])).outputs[0]!.batch.count, 0);
  time = 100;
  assert.is(runner.process(batchOf([{ a: 1 }])).outputs[0]!.batch.count, 1);
});

test.run();
