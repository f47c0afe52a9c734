import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('keys lists the top-level keys in sorted order', () => {
  assert.equal(stdlib.call('fn_keys', { key2: 'val2', key1: 'val1' }), { value: ['key1', 'key2'] });
  assert.equal(stdlib.call('fn_keys', { b: { c: 1n }, a: [] }), { value: ['a', 'b'] });
  assert.equal(stdlib.call('fn_keys', {}), { value: [] });
});

test("a non-object fails with VRL's type error", () => {
  assert.equal(stdlib.call('fn_keys', 1n), { error: 'expected object, got integer' });
});

test.run();
