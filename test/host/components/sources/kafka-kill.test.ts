// At-least-once through Kafka across SIGKILL: an agent produces lines, two aggregators share them as members of
// one consumer group, one is killed mid-stream and restarted; no line is lost (duplicates are expected: the
// killed member's uncommitted records are read again), and the group's committed offsets reach the end.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runKafkaScaleOut } from '../../support/kafka-scale-out.js';

test('agent → kafka → two aggregators in one group, one SIGKILLed twice: every line delivered', async () => {
  const lines = 4000;
  const outcome = await runKafkaScaleOut({ lines, kills: 2 });
  assert.is(outcome.kills, 2);
  assert.equal(outcome.lost, [], `${outcome.lost.length} lines lost, ${outcome.duplicated} duplicated`);
  assert.ok(outcome.perAggregator[1] > 0, 'the second aggregator took a share');
  assert.is(outcome.committed, BigInt(lines), 'every record committed in the end');
});

test.run();
