import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('equal values give true', () => {
  assert.equal(stdlib.call('fn_assert_eq', 1n, 1n), { value: true });
  assert.equal(stdlib.call('fn_assert_eq', { a: [1n, 'x'] }, { a: [1n, 'x'] }), { value: true });
  assert.equal(stdlib.call('fn_assert_eq', 2.5, 2.5), { value: true });
});

test('unequal values fail with both in display form, or with the message', () => {
  assert.equal(stdlib.call('fn_assert_eq', 127n, [1n, 2n, 3n]), { error: 'assertion failed: 127 == [1, 2, 3]' });
  assert.equal(stdlib.call('fn_assert_eq', 'x"y\n', { k: [1.5, null] }), {
    error: 'assertion failed: "x\\"y\\n" == { "k": [1.5, null] }',
  });
  assert.equal(stdlib.call('fn_assert_eq', 1n, 0n, 'Unequal integers'), { error: 'Unequal integers' });
});

test('an integer never equals a float', () => {
  assert.equal(stdlib.call('fn_assert_eq', [1n], [1.5]), { error: 'assertion failed: [1] == [1.5]' });
});

test('the message is looked at only when the assertion fails', () => {
  assert.equal(stdlib.call('fn_assert_eq', 1n, 1n, 3n), { value: true });
  assert.equal(stdlib.call('fn_assert_eq', 1n, 2n, 3n), { error: 'expected string, got integer' });
});

test.run();
