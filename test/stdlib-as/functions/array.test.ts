import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('array returns its argument when it is an array', () => {
  assert.equal(stdlib.call('fn_array', [1n, 2n, 3n]), { value: [1n, 2n, 3n] });
});

test("array fails with VRL's type error otherwise", () => {
  assert.equal(stdlib.call('fn_array', true), { error: 'expected array, got boolean' });
  assert.equal(stdlib.call('fn_array', null), { error: 'expected array, got null' });
});

test.run();
