import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { SAMPLES } from './support/samples.js';

const stdlib = new Stdlib();

test('is_boolean is true for a boolean', () => {
  assert.equal(stdlib.call('fn_is_boolean', false), { value: true });
});

test('is_boolean is false for every other kind', () => {
  for (const [kind, value] of SAMPLES) {
    assert.equal(stdlib.call('fn_is_boolean', value), { value: kind === 'boolean' }, kind);
  }
});

test.run();
