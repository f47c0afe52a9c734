// request.concurrency: a fixed limit holds exactly that many tasks in flight; the adaptive limit grows by
// one per window that reached it at a steady RTT, and shrinks by decrease_ratio on back-pressure or an RTT
// far above its past average (a fake clock drives the windows).

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AdaptiveConcurrency, FixedConcurrency, InFlight } from '../../../../host/components/support/concurrency.js';

const ARC = {
  decrease_ratio: 0.9,
  ewma_alpha: 0.4,
  initial_concurrency: 1,
  max_concurrency_limit: 200,
  rtt_deviation_scale: 2.5,
};

/** Tasks that end when the test says so. */
function gatedTasks() {
  let running = 0;
  let most = 0;
  const gates: Array<() => void> = [];
  return {
    task: () => {
      running++;
      most = Math.max(most, running);
      return new Promise<void>((resolve) => gates.push(resolve)).then(() => void running--);
    },
    release: () => gates.shift()!(),
    get running() {
      return running;
    },
    get most() {
      return most;
    },
  };
}

test('fixed concurrency 3: three tasks in flight, the fourth starts when one ends', async () => {
  const inFlight = new InFlight(new FixedConcurrency(3));
  const tasks = gatedTasks();
  for (let i = 0; i < 3; i++) await inFlight.start(tasks.task);
  let fourthStarted = false;
  const fourth = inFlight.start(tasks.task).then(() => (fourthStarted = true));
  await Promise.resolve();
  assert.is(tasks.running, 3);
  assert.not.ok(fourthStarted);
  tasks.release();
  await fourth;
  assert.is(tasks.running, 3);
  for (let i = 0; i < 3; i++) tasks.release();
  await inFlight.idle();
  assert.is(tasks.running, 0);
  assert.is(tasks.most, 3);
});

/** One window: `limit` requests started (reaching the limit), each answered after `rtt`, the clock then
 * moved past the window's end. */
function window(arc: AdaptiveConcurrency, clock: { now: number }, rtt: number, backPressure = false) {
  const limit = arc.limit;
  for (let i = 1; i <= limit; i++) arc.started(i);
  clock.now += rtt;
  for (let i = 0; i < limit; i++) arc.finished(rtt, backPressure);
}

test('adaptive: starts at initial_concurrency, +1 per window at a steady RTT, up to max_concurrency_limit', () => {
  const clock = { now: 0 };
  const arc = new AdaptiveConcurrency({ ...ARC, max_concurrency_limit: 5 }, () => clock.now);
  assert.is(arc.limit, 1);
  const limits = [];
  for (let i = 0; i < 6; i++) {
    window(arc, clock, 100);
    limits.push(arc.limit);
  }
  assert.equal(limits, [2, 3, 4, 5, 5, 5]);
});

test('adaptive: a window not reaching the limit does not grow it', () => {
  const clock = { now: 0 };
  const arc = new AdaptiveConcurrency({ ...ARC, initial_concurrency: 4 }, () => clock.now);
  arc.started(1);
  clock.now += 100;
  arc.finished(100, false);
  assert.is(arc.limit, 4);
});

test('adaptive: back-pressure multiplies the limit by decrease_ratio, rounded down, never below 1', () => {
  const clock = { now: 0 };
  const arc = new AdaptiveConcurrency({ ...ARC, initial_concurrency: 20 }, () => clock.now);
  window(arc, clock, 100, true);
  assert.is(arc.limit, 18);
  const one = new AdaptiveConcurrency({ ...ARC, initial_concurrency: 1 }, () => clock.now);
  window(one, clock, 100, true);
  assert.is(one.limit, 1);
});

test('adaptive: an RTT far above the past average decreases the limit; within the deviation it does not', () => {
  const clock = { now: 0 };
  const arc = new AdaptiveConcurrency({ ...ARC, initial_concurrency: 10, max_concurrency_limit: 10 }, () => clock.now);
  window(arc, clock, 100);
  window(arc, clock, 100);
  assert.is(arc.limit, 10);
  window(arc, clock, 400);
  assert.is(arc.limit, 9);
});

test.run();
