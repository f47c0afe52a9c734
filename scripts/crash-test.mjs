// `npm run build && node scripts/crash-test.mjs [--lines N] [--kills K] [--failure-rate R] [--no-acks] [--disk-buffer]`
// The long crash run of end-to-end acknowledgements (test/host/support/crash.ts, built to dist-test/): svc is
// SIGKILLed K times and restarted while a writer appends N lines (file source → remap → http sink) and while
// clients post N events (http_server → http sink), the receiver failing requests at random. Prints what was
// lost and duplicated; exits 1 when a line was lost (file) or a request answered 200 was lost (http_server).
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '100000' },
    kills: { type: 'string', default: '10' },
    'failure-rate': { type: 'string', default: '0.1' },
    'no-acks': { type: 'boolean', default: false },
    'disk-buffer': { type: 'boolean', default: false },
  },
});
const { fileSourceCrashRun, httpServerCrashRun } = await import('../dist-test/test/host/support/crash.js');

const options = {
  lines: Number(values.lines),
  kills: Number(values.kills),
  failureRate: Number(values['failure-rate']),
  acknowledgements: !values['no-acks'],
  diskBuffer: values['disk-buffer'],
  log: (line) => console.log(`  ${line}`),
};

let failed = false;
console.log('file source → remap → http sink');
const file = await fileSourceCrashRun(options);
console.log(
  `file: ${file.sent} lines, ${file.kills} kills, ${file.lost.length} lost${file.deadlinePassed ? ' (still missing at the deadline)' : ''}, ` +
    `${file.duplicated} duplicated`,
);
if (file.lost.length > 0) failed = true;

console.log('http_server → http sink');
const server = await httpServerCrashRun({ ...options, lines: Math.min(options.lines, 5000) });
console.log(
  `http_server: ${server.sent} requests, ${server.kills} kills, ${server.lostAfter200.length} answered 200 and lost, ` +
    `${server.unanswered} not answered 200 by the deadline, ${server.duplicated} duplicated`,
);
if (server.lostAfter200.length > 0) failed = true;
process.exit(failed ? 1 : 0);
