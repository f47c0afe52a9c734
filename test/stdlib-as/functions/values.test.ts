import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('values lists field values in key order', () => {
  assert.equal(stdlib.call('fn_values', { key1: 'val1', key2: 'val2' }), { value: ['val1', 'val2'] });
  assert.equal(stdlib.call('fn_values', { key3: { foo: 'bar' }, key1: 'val1', key2: [1n, 2n, 3n] }), {
    value: ['val1', [1n, 2n, 3n], { foo: 'bar' }],
  });
  assert.equal(stdlib.call('fn_values', {}), { value: [] });
});

test("a non-object fails with VRL's type error", () => {
  assert.equal(stdlib.call('fn_values', [1n]), { error: 'expected object, got [integer]' });
});

test.run();
