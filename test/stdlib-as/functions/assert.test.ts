import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('a true condition gives true', () => {
  assert.equal(stdlib.call('fn_assert', true), { value: true });
  assert.equal(stdlib.call('fn_assert', true, '"foo" must be "foo"!'), { value: true });
});

test('a false condition fails with the message, or `assertion failed`', () => {
  assert.equal(stdlib.call('fn_assert', false, '"foo" must be "foo"!'), { error: '"foo" must be "foo"!' });
  assert.equal(stdlib.call('fn_assert', false), { error: 'assertion failed' });
});

test("wrong kinds fail with VRL's type error", () => {
  assert.equal(stdlib.call('fn_assert', 1n), { error: 'expected boolean, got integer' });
  assert.equal(stdlib.call('fn_assert', false, 3n), { error: 'expected string, got integer' });
  assert.equal(stdlib.call('fn_assert', true, 3n), { value: true }, 'the message is only looked at on failure');
});

test.run();
