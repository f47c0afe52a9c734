// The blackhole sink: takes everything, reports what it took.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import blackhole from '../../../../host/components/sinks/blackhole.js';
import { componentEnv, logBatch } from '../../support/env.js';

test('accepts batches and reports the totals on close when print_interval_secs is set', async () => {
  const env = componentEnv(blackhole);
  const sink = await blackhole.build(blackhole.options.parse({ print_interval_secs: 60 }), env);
  const batch = logBatch([{ message: 'a' }, { message: 'b' }]);
  await sink.write(batch);
  await sink.write(batch);
  await sink.close();
  const report = env.logs.find((record) => record.message === 'Collected events.');
  assert.equal(report?.fields.events, 4);
  assert.equal(report?.fields.raw_bytes_collected, 2 * batch.bytes.length);
});

test('rate: a burst of one second of events passes at once', async () => {
  const env = componentEnv(blackhole);
  const sink = await blackhole.build(blackhole.options.parse({ rate: 1000 }), env);
  await sink.write(logBatch(Array.from({ length: 1000 }, () => ({ message: 'x' }))));
  await sink.close();
  assert.is(env.logs.length, 0);
});

test('options: Vector defaults, no report unless asked', () => {
  assert.equal(blackhole.options.parse({}), { print_interval_secs: 0 });
  assert.not.ok(blackhole.options.safeParse({ rate: 0 }).success);
});

test.run();
