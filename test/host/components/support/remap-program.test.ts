import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runsModulesOf } from '../../../../host/components/support/remap-program.js';

test('an svc runs modules of its own major version (minor before 1.0) that are not newer than itself', () => {
  assert.ok(runsModulesOf('0.1.0', '0.1.0'));
  assert.ok(runsModulesOf('0.1.3', '0.1.2'));
  assert.ok(runsModulesOf('1.4.0', '1.2.7'));
  assert.ok(runsModulesOf('1.4.0-rc.1', '1.4.0'));
  assert.not.ok(runsModulesOf('0.1.2', '0.1.3'));
  assert.not.ok(runsModulesOf('0.2.0', '0.1.0'));
  assert.not.ok(runsModulesOf('1.4.0', '1.5.0'));
  assert.not.ok(runsModulesOf('2.0.0', '1.9.9'));
  assert.not.ok(runsModulesOf('0.1.0', 'dev'));
});

test.run();
