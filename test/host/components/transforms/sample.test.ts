import { test } from 'uvu';
import * as assert from 'uvu/assert';
import sample from '../../../../host/components/transforms/sample.js';
import { seahash } from '../../../../runtime/seahash.js';
import { decodeBatch, encodeBatch } from '../../../../abi/batch.js';
import { batchOf, eventsOf, runnerOf } from '../../support/components.js';

test('seahash matches the crate', () => {
  assert.is(seahash(Buffer.from('to be or not to be')), 1988685042348123509n);
});

test('sample rate N keeps exactly 1 in N events, the first of each run, with the rate stored', async () => {
  const { runner } = await runnerOf(sample, { rate: 10 });
  const events = Array.from({ length: 100 }, (_, n) => ({ n, f: 1.5 }));
  const result = runner.process(batchOf(events));
  const kept = eventsOf(result.outputs[0]!.batch) as Array<{ n: bigint }>;
  assert.equal(
    kept.map((event) => event.n),
    [0n, 10n, 20n, 30n, 40n, 50n, 60n, 70n, 80n, 90n],
  );
  assert.equal(kept[0], { n: 0n, f: 1.5, sample_rate: '10' });
  assert.equal(result.discarded, [{ count: 90, intentional: true, reason: 'Sample discarded.' }]);
});

test("in Vector's log namespace the rate goes to %sample.<sample_rate_key>, the event untouched", async () => {
  const { runner } = await runnerOf(sample, { rate: 2, sample_rate_key: 'rate.of' });
  const metadata = { vector: { source_type: 'stdin' } };
  const input = encodeBatch(
    ['a', 'b', 'c'].map((event) => ({ metadata, event })),
    0,
  );
  const kept = decodeBatch(runner.process({ bytes: input, count: 3 }).outputs[0]!.batch.bytes).events;
  assert.equal(
    kept.map((record) => [record.event, record.metadata]),
    [
      ['a', { ...metadata, sample: { rate: { of: '2' } } }],
      ['c', { ...metadata, sample: { rate: { of: '2' } } }],
    ],
  );
});

test('sample ratio keeps that share; group_by counts per group; exclude passes events through', async () => {
  const { runner } = await runnerOf(sample, {
    ratio: 0.25,
    group_by: '{{ g }}',
    exclude: '.keep == true',
    sample_rate_key: '',
  });
  const events = [
    ...Array.from({ length: 8 }, () => ({ g: 'a' })),
    ...Array.from({ length: 4 }, () => ({ g: 'b' })),
    { keep: true },
  ];
  const kept = eventsOf(runner.process(batchOf(events)).outputs[0]!.batch);
  assert.equal(kept, [{ g: 'a' }, { g: 'a' }, { g: 'b' }, { keep: true }]);
});

test('sample key_field decides by the hash of the value: all events with one value go together', async () => {
  const { runner } = await runnerOf(sample, { rate: 2, key_field: 'id' });
  const ids = Array.from({ length: 20 }, (_, i) => `id-${i}`);
  const events = [...ids, ...ids].map((id) => ({ id }));
  const kept = (eventsOf(runner.process(batchOf(events)).outputs[0]!.batch) as Array<{ id: string }>).map(
    (event) => event.id,
  );
  const expected = ids.filter((id) => seahash(Buffer.from(id)) % 2n === 0n);
  assert.equal(kept, [...expected, ...expected]);
});

test('sample options: exactly one of rate or ratio', () => {
  assert.not.ok(sample.options.safeParse({}).success);
  assert.not.ok(sample.options.safeParse({ rate: 2, ratio: 0.5 }).success);
  assert.not.ok(sample.options.safeParse({ ratio: 1.5 }).success);
});

test.run();
