import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { SAMPLES } from './support/samples.js';

const stdlib = new Stdlib();

test('is_object is true for an object', () => {
  assert.equal(stdlib.call('fn_is_object', { foo: 'bar' }), { value: true });
});

test('is_object is false for every other kind', () => {
  for (const [kind, value] of SAMPLES) {
    assert.equal(stdlib.call('fn_is_object', value), { value: kind === 'object' }, kind);
  }
});

test.run();
