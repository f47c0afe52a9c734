import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Utilization } from '../../../host/topology/utilization.js';

function meter() {
  const clock = { now: 0 };
  const reported: number[] = [];
  const utilization = new Utilization({ set: (value) => reported.push(value) }, () => clock.now);
  utilization.stop();
  return { clock, reported, utilization };
}

test('the share of each window spent working; overlapping work items count once', () => {
  const { clock, reported, utilization } = meter();
  clock.now = 1000;
  utilization.start();
  clock.now = 1500;
  utilization.start();
  clock.now = 2000;
  utilization.end();
  clock.now = 2500;
  utilization.end();
  clock.now = 5000;
  utilization.report();
  assert.equal(reported, [0.3]);
});

test('a window idle throughout reports 0; one busy throughout reports 1, and work across a window end counts in both', () => {
  const { clock, reported, utilization } = meter();
  clock.now = 5000;
  utilization.report();
  clock.now = 9000;
  utilization.start();
  clock.now = 10000;
  utilization.report();
  clock.now = 15000;
  utilization.report();
  clock.now = 17500;
  utilization.end();
  clock.now = 20000;
  utilization.report();
  assert.equal(reported, [0, 0.2, 1, 0.5]);
});

test.run();
