// End-to-end acknowledgements under SIGKILL (test/host/support/crash.ts): no line a source took is lost.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileSourceCrashRun, httpServerCrashRun, type CrashOutcome } from './support/crash.js';

/** Why lines are missing: still missing when the run's deadline passed (late, maybe a starved machine), or not. */
const missing = (outcome: CrashOutcome) =>
  `${outcome.lost.length} lines missing${outcome.deadlinePassed ? ' when the deadline passed' : ''}`;

test('file → remap → http sink: killed twice while the receiver fails at random, every line arrives', async () => {
  const outcome = await fileSourceCrashRun({ lines: 1500, kills: 2, failureRate: 0.15 });
  console.log(`file source: ${outcome.sent} lines, ${outcome.lost.length} lost, ${outcome.duplicated} duplicated`);
  assert.equal(outcome.lost, [], missing(outcome));
});

test('file → remap → http sink with a disk buffer: killed twice, every line arrives', async () => {
  const outcome = await fileSourceCrashRun({ lines: 1500, kills: 2, failureRate: 0.15, diskBuffer: true });
  console.log(`disk buffer: ${outcome.sent} lines, ${outcome.lost.length} lost, ${outcome.duplicated} duplicated`);
  assert.equal(outcome.lost, [], missing(outcome));
});

test('http_server → http sink: killed twice, every request answered 200 was delivered', async () => {
  const outcome = await httpServerCrashRun({ lines: 400, kills: 2, failureRate: 0.15 });
  console.log(
    `http_server: ${outcome.sent} requests, ${outcome.lostAfter200.length} answered 200 and lost, ${outcome.duplicated} duplicated`,
  );
  assert.equal(outcome.lostAfter200, []);
  assert.equal(outcome.lost, [], missing(outcome));
});

test('http_server → http sink with a disk buffer: killed twice, every request answered 200 was delivered', async () => {
  const outcome = await httpServerCrashRun({ lines: 400, kills: 2, failureRate: 0.15, diskBuffer: true });
  console.log(
    `http_server, disk buffer: ${outcome.sent} requests, ${outcome.lostAfter200.length} answered 200 and lost, ${outcome.duplicated} duplicated`,
  );
  assert.equal(outcome.lostAfter200, []);
  assert.equal(outcome.lost, [], missing(outcome));
});

test.run();
