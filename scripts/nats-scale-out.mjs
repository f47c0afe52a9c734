// `npm run build && node scripts/nats-scale-out.mjs [--lines N] [--kills K] [--ack-wait S]`
// Issue 25's scale-out run through NATS JetStream (test/host/support/nats-scale-out.ts, built to dist-test/):
// an agent svc publishes N lines (file source → nats sink) and two aggregator svcs share one durable consumer
// (nats source → remap → file sink); the first aggregator is SIGKILLed K times and restarted. Prints what
// was lost and duplicated and how the lines were shared; exits 1 when a line was lost.
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '200000' },
    kills: { type: 'string', default: '3' },
    'ack-wait': { type: 'string', default: '10' },
  },
});
const { runScaleOut } = await import('../dist-test/test/host/support/nats-scale-out.js');

const outcome = await runScaleOut({
  lines: Number(values.lines),
  kills: Number(values.kills),
  ackWaitSecs: Number(values['ack-wait']),
  deadlineMs: 600_000,
  log: (line) => console.log(`  ${line}`),
});
console.log(
  `nats JetStream: ${values.lines} lines, ${outcome.kills} kills of aggregator a, ${outcome.lost.length} lost, ` +
    `${outcome.duplicated} duplicated; aggregator a wrote ${outcome.perAggregator[0]}, b ${outcome.perAggregator[1]}; ` +
    `${outcome.seconds.toFixed(1)} s`,
);
process.exitCode = outcome.lost.length > 0 ? 1 : 0;
