// At-least-once through NATS JetStream across SIGKILL: an agent publishes lines, two aggregators share a
// durable consumer, one is killed mid-stream and restarted; no line is lost (duplicates are expected: the
// killed run's unacknowledged messages are redelivered). The large run is scripts/scale-out.mjs (--broker nats).

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScaleOut } from '../../support/nats-scale-out.js';

test('agent → nats JetStream → two aggregators, one SIGKILLed twice: every line delivered', async () => {
  const outcome = await runScaleOut({ lines: 4000, kills: 2, ackWaitSecs: 2 });
  assert.is(outcome.kills, 2);
  assert.equal(outcome.lost, [], `${outcome.lost.length} lines lost, ${outcome.duplicated} duplicated`);
  assert.ok(outcome.perAggregator[1] > 0, 'the second aggregator took a share');
});

test.run();
