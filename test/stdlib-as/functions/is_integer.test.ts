import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { SAMPLES } from './support/samples.js';

const stdlib = new Stdlib();

test('is_integer is true for an integer', () => {
  assert.equal(stdlib.call('fn_is_integer', 1n), { value: true });
});

test('is_integer is false for every other kind', () => {
  for (const [kind, value] of SAMPLES) {
    assert.equal(stdlib.call('fn_is_integer', value), { value: kind === 'integer' }, kind);
  }
});

test.run();
