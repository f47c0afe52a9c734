import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Timestamp } from '../../../abi/values.js';

const stdlib = new Stdlib();

test('timestamp returns its argument when it is a timestamp', () => {
  assert.equal(stdlib.call('fn_timestamp', new Timestamp(1_602_345_600_000_000_000n)), {
    value: new Timestamp(1_602_345_600_000_000_000n),
  });
});

test("timestamp fails with VRL's type error otherwise", () => {
  assert.equal(stdlib.call('fn_timestamp', true), { error: 'expected timestamp, got boolean' });
  assert.equal(stdlib.call('fn_timestamp', null), { error: 'expected timestamp, got null' });
});

test.run();
