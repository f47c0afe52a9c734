// At-least-once through a Redis Stream across SIGKILL: an agent appends lines, two aggregators share a
// consumer group, one is killed mid-stream and restarted; no line is lost (duplicates are expected: the
// killed run's unacknowledged entries are read again by its restart or claimed by the other aggregator).

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runRedisScaleOut } from '../../support/redis-scale-out.js';

test('agent → redis stream → two aggregators, one SIGKILLed twice: every line delivered', async () => {
  const outcome = await runRedisScaleOut({ lines: 4000, kills: 2, claimIdleMs: 2000 });
  assert.is(outcome.kills, 2);
  assert.equal(outcome.lost, [], `${outcome.lost.length} lines lost, ${outcome.duplicated} duplicated`);
  assert.ok(outcome.perAggregator[1] > 0, 'the second aggregator took a share');
  assert.is(outcome.pending, 0, 'every entry acknowledged in the end');
});

test.run();
