import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { SAMPLES } from './support/samples.js';

const stdlib = new Stdlib();

test('is_null is true for null', () => {
  assert.equal(stdlib.call('fn_is_null', null), { value: true });
});

test('is_null is false for every other kind', () => {
  for (const [kind, value] of SAMPLES) {
    assert.equal(stdlib.call('fn_is_null', value), { value: kind === 'null' }, kind);
  }
});

test.run();
