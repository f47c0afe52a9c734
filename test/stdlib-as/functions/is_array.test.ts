import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { SAMPLES } from './support/samples.js';

const stdlib = new Stdlib();

test('is_array is true for an array', () => {
  assert.equal(stdlib.call('fn_is_array', [1n, 2n, 3n]), { value: true });
});

test('is_array is false for every other kind', () => {
  for (const [kind, value] of SAMPLES) {
    assert.equal(stdlib.call('fn_is_array', value), { value: kind === 'array' }, kind);
  }
});

test.run();
