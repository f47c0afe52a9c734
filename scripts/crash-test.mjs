// `npm run build && node scripts/crash-test.mjs [--lines N] [--kills K] [--failure-rate R] [--no-acks]`
// The long crash run of end-to-end acknowledgements (test/host/support/crash.ts, built to dist-test/): svc is
// SIGKILLed K times and restarted while a writer appends N lines (file source → remap → http sink) and while
// clients post N events (http_server → http sink), the receiver failing requests at random. Prints what was
// lost and duplicated; exits 1 when anything was lost (or, for http_server, answered 200 and lost).
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '100000' },
    kills: { type: 'string', default: '10' },
    'failure-rate': { type: 'string', default: '0.1' },
    'no-acks': { type: 'boolean', default: false },
  },
});
const { fileSourceCrashRun, httpServerCrashRun } = await import('../dist-test/test/host/support/crash.js');

const options = {
  lines: Number(values.lines),
  kills: Number(values.kills),
  failureRate: Number(values['failure-rate']),
  acknowledgements: !values['no-acks'],
  log: (line) => console.log(`  ${line}`),
};

let failed = false;
const report = (name, outcome) => {
  const lostAfter200 = outcome.lostAfter200.length > 0 ? `, ${outcome.lostAfter200.length} answered 200 and lost` : '';
  console.log(
    `${name}: ${outcome.sent} sent, ${outcome.kills} kills, ${outcome.lost.length} lost${lostAfter200}, ${outcome.duplicated} duplicated`,
  );
  if (outcome.lost.length > 0 || outcome.lostAfter200.length > 0) failed = true;
};

console.log('file source → remap → http sink');
report('file', await fileSourceCrashRun(options));
console.log('http_server → http sink');
report('http_server', await httpServerCrashRun({ ...options, lines: Math.min(options.lines, 5000) }));
process.exit(failed ? 1 : 0);
