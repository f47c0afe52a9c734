// `npm run build && node scripts/scale-out.mjs [--broker nats|redis|kafka] [--lines N] [--kills K] [--ack-wait S]`
// Issue 25's scale-out run (test/host/support/{nats,redis,kafka}-scale-out.ts, built to dist-test/): an agent
// svc publishes N lines (file source → broker sink) and two aggregator svcs share one durable consumer — a
// JetStream consumer, a Redis Streams consumer group, or a Kafka consumer group on the in-test broker of
// test/host/support/kafka-broker.ts — (broker source → remap → file sink); the first
// aggregator is SIGKILLed K times and restarted. Prints what was lost and duplicated and how the lines were
// shared; exits 1 when a line was lost.
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    broker: { type: 'string', default: 'nats' },
    lines: { type: 'string', default: '200000' },
    kills: { type: 'string', default: '3' },
    // nats: the consumer's ack_wait; redis: how long an entry stays pending before it is claimed; kafka: the
    // group's session timeout.
    'ack-wait': { type: 'string', default: '10' },
  },
});
const common = {
  lines: Number(values.lines),
  kills: Number(values.kills),
  deadlineMs: 600_000,
  log: (line) => console.log(`  ${line}`),
};
const waitSecs = Number(values['ack-wait']);

let outcome;
let what;
if (values.broker === 'nats') {
  const { runScaleOut } = await import('../dist-test/test/host/support/nats-scale-out.js');
  outcome = await runScaleOut({ ...common, ackWaitSecs: waitSecs });
  what = 'nats JetStream';
} else if (values.broker === 'redis') {
  const { runRedisScaleOut } = await import('../dist-test/test/host/support/redis-scale-out.js');
  outcome = await runRedisScaleOut({ ...common, claimIdleMs: waitSecs * 1000 });
  what = `Redis Streams (${outcome.pending} entries left pending)`;
} else if (values.broker === 'kafka') {
  const { runKafkaScaleOut } = await import('../dist-test/test/host/support/kafka-scale-out.js');
  outcome = await runKafkaScaleOut({ ...common, sessionTimeoutMs: waitSecs * 1000 });
  what = `Kafka (in-test broker; ${outcome.committed} offsets committed)`;
} else {
  console.error(`--broker: nats, redis or kafka, not ${values.broker}`);
  process.exit(2);
}
console.log(
  `${what}: ${values.lines} lines, ${outcome.kills} kills of aggregator a, ${outcome.lost.length} lost, ` +
    `${outcome.duplicated} duplicated; aggregator a wrote ${outcome.perAggregator[0]}, b ${outcome.perAggregator[1]}; ` +
    `${outcome.seconds.toFixed(1)} s`,
);
process.exitCode = outcome.lost.length > 0 ? 1 : 0;
