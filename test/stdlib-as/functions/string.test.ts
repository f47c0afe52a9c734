import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('string returns its argument when it is a string', () => {
  assert.equal(stdlib.call('fn_string', 'a'), { value: 'a' });
});

test("string fails with VRL's type error otherwise", () => {
  assert.equal(stdlib.call('fn_string', true), { error: 'expected string, got boolean' });
  assert.equal(stdlib.call('fn_string', null), { error: 'expected string, got null' });
});

test('a type error names a collection by its exact type, as VRL (checked against the reference engine)', () => {
  assert.equal(stdlib.call('fn_string', [1n, ['x'], {}]), {
    error: 'expected string, got [integer, [string], object]',
  });
  assert.equal(stdlib.call('fn_string', { b: null, 'a b': [] }), {
    error: 'expected string, got { "a b": array, b: null }',
  });
  assert.equal(stdlib.call('fn_string', []), { error: 'expected string, got array' });
});

test.run();
