// At-least-once through RabbitMQ across SIGKILL: an agent publishes lines, two aggregators consume one queue,
// one is killed mid-stream and restarted; no line is lost (duplicates are expected: the killed run's
// unacknowledged messages are requeued and delivered again).

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runAmqpScaleOut } from '../../support/amqp-scale-out.js';

test('agent → amqp → two aggregators, one SIGKILLed twice: every line delivered', async () => {
  const outcome = await runAmqpScaleOut({ lines: 4000, kills: 2 });
  assert.is(outcome.kills, 2);
  assert.equal(outcome.lost, [], `${outcome.lost.length} lines lost, ${outcome.duplicated} duplicated`);
  assert.ok(outcome.perAggregator[1] > 0, 'the second aggregator took a share');
  assert.is(outcome.queued, 0, 'every message acknowledged in the end');
});

test.run();
