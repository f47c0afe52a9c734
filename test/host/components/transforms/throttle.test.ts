import { test } from 'uvu';
import * as assert from 'uvu/assert';
import throttle, { createThrottle } from '../../../../host/components/transforms/throttle.js';
import { batchOf, eventsOf } from '../../support/components.js';
import { componentEnv } from '../../support/env.js';

async function throttled(options: object) {
  let time = 0;
  const plan = await throttle.prepare(throttle.options.parse(options), componentEnv(throttle, 't'));
  const runner = await createThrottle(plan, () => time);
  return { runner, advance: (ms: number) => (time += ms) };
}

test('throttle lets a burst of threshold events through, then one per window/threshold', async () => {
  const { runner, advance } = await throttled({ threshold: 3, window_secs: 6 });
  const events = Array.from({ length: 5 }, (_, n) => ({ n }));
  const result = runner.process(batchOf(events));
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ n: 0n }, { n: 1n }, { n: 2n }]);
  assert.equal(result.discarded, [{ count: 2, intentional: true, reason: 'Rate limit exceeded.' }]);
  advance(1999);
  assert.is(runner.process(batchOf(events)).outputs[0]!.batch.count, 0);
  advance(1);
  assert.is(runner.process(batchOf(events)).outputs[0]!.batch.count, 1);
  advance(6000);
  assert.is(runner.process(batchOf(events)).outputs[0]!.batch.count, 3);
});

test('throttle keeps a bucket per rendered key_field; events without the key share one; per-key metric', async () => {
  const { runner } = await throttled({
    threshold: 1,
    window_secs: 60,
    key_field: '{{ host }}',
    internal_metrics: { emit_events_discarded_per_key: true },
  });
  const result = runner.process(batchOf([{ host: 'a' }, { host: 'b' }, { host: 'a' }, {}, {}, { host: 'b' }]));
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ host: 'a' }, { host: 'b' }, {}]);
  assert.equal(result.discarded, [
    { count: 1, intentional: true, reason: 'Rate limit exceeded.', key: 'a' },
    { count: 1, intentional: true, reason: 'Rate limit exceeded.', key: 'None' },
    { count: 1, intentional: true, reason: 'Rate limit exceeded.', key: 'b' },
  ]);
  assert.equal(
    result.errors!.map(({ count, errorType }) => ({ count, errorType })),
    [{ count: 2, errorType: 'template_failed' }],
  );
});

test('throttle: events matching exclude are never limited', async () => {
  const { runner } = await throttled({ threshold: 1, window_secs: 60, exclude: '.vip == true' });
  const result = runner.process(batchOf([{ n: 1 }, { n: 2, vip: true }, { n: 3 }, { n: 4, vip: true }]));
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ n: 1n }, { n: 2n, vip: true }, { n: 4n, vip: true }]);
});

test('throttle: threshold and window_secs 0 are configuration errors', () => {
  for (const options of [
    { threshold: 0, window_secs: 1 },
    { threshold: 1, window_secs: 0 },
  ]) {
    const parsed = throttle.options.safeParse(options);
    assert.not.ok(parsed.success);
    assert.match(parsed.error!.message, /must be non-zero/);
  }
});

test.run();
