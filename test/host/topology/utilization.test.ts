import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Utilization } from '../../../host/topology/utilization.js';

/** Runs `steps` (at a time in ms: a work item starts or ends, or the window is reported) on a fake clock;
 * returns the values reported. */
function reports(steps: ReadonlyArray<readonly [number, 'start' | 'end' | 'report']>): number[] {
  const clock = { now: 0 };
  const reported: number[] = [];
  const utilization = new Utilization({ set: (value) => reported.push(value) }, () => clock.now);
  utilization.stop();
  for (const [at, step] of steps) {
    clock.now = at;
    utilization[step]();
  }
  return reported;
}

test('the share of each window spent working; overlapping work items count once', () => {
  assert.equal(
    reports([
      [1000, 'start'],
      [1500, 'start'],
      [2000, 'end'],
      [2500, 'end'],
      [5000, 'report'],
    ]),
    [0.3],
  );
});

test('a window idle throughout reports 0; one busy throughout reports 1, and work across a window end counts in both', () => {
  assert.equal(
    reports([
      [5000, 'report'],
      [9000, 'start'],
      [10000, 'report'],
      [15000, 'report'],
      [17500, 'end'],
      [20000, 'report'],
    ]),
    [0, 0.2, 1, 0.5],
  );
});

test.run();
