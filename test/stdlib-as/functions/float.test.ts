import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('float returns its argument when it is a float', () => {
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: the upstream example's value
  assert.equal(stdlib.call('fn_float', 3.1415), { value: 3.1415 });
});

test("float fails with VRL's type error otherwise", () => {
  assert.equal(stdlib.call('fn_float', true), { error: 'expected float, got boolean' });
  assert.equal(stdlib.call('fn_float', null), { error: 'expected float, got null' });
});

test.run();
