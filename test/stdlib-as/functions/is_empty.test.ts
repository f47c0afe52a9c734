import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('strings, arrays and objects of length zero are empty', () => {
  for (const value of ['', [], {}]) assert.equal(stdlib.call('fn_is_empty', value), { value: true });
  for (const value of ['a string', [1n, 2n, 3n], { foo: 'bar' }]) {
    assert.equal(stdlib.call('fn_is_empty', value), { value: false });
  }
});

test("other kinds fail with VRL's type error", () => {
  assert.equal(stdlib.call('fn_is_empty', 1n), { error: 'expected string, array or object, got integer' });
});

test.run();
