import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

// The texts are the reference engine's for the same calls.
test('coercion and path errors name a collection by its exact type', () => {
  assert.equal(stdlib.call('fn_to_bool', [1n, { a: 'x' }]), {
    error: 'unable to coerce [integer, { a: string }] into boolean',
  });
  assert.equal(stdlib.call('fn_to_bool', {}), { error: 'unable to coerce object into boolean' });
  assert.equal(stdlib.call('fn_set', {}, [[1n]], 2n), {
    error: 'path segment must be either string or integer, not [integer]',
  });
});

test.run();
