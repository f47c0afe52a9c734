import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('bool returns its argument when it is a boolean', () => {
  assert.equal(stdlib.call('fn_bool', false), { value: false });
});

test("bool fails with VRL's type error otherwise", () => {
  assert.equal(stdlib.call('fn_bool', 42n), { error: 'expected boolean, got integer' });
  assert.equal(stdlib.call('fn_bool', null), { error: 'expected boolean, got null' });
});

test.run();
