import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { SAMPLES } from './support/samples.js';

const stdlib = new Stdlib();

test('is_float is true for a float', () => {
  assert.equal(stdlib.call('fn_is_float', 0.577), { value: true });
});

test('is_float is false for every other kind', () => {
  for (const [kind, value] of SAMPLES) {
    assert.equal(stdlib.call('fn_is_float', value), { value: kind === 'float' }, kind);
  }
});

test.run();
