import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('int returns its argument when it is an integer', () => {
  assert.equal(stdlib.call('fn_int', 42n), { value: 42n });
});

test("int fails with VRL's type error otherwise", () => {
  assert.equal(stdlib.call('fn_int', true), { error: 'expected integer, got boolean' });
  assert.equal(stdlib.call('fn_int', null), { error: 'expected integer, got null' });
});

test.run();
