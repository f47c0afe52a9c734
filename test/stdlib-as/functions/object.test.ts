import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('object returns its argument when it is an object', () => {
  assert.equal(stdlib.call('fn_object', { field1: 'value1', field2: 'value2' }), {
    value: { field1: 'value1', field2: 'value2' },
  });
});

test("object fails with VRL's type error otherwise", () => {
  assert.equal(stdlib.call('fn_object', true), { error: 'expected object, got boolean' });
  assert.equal(stdlib.call('fn_object', null), { error: 'expected object, got null' });
});

test.run();
