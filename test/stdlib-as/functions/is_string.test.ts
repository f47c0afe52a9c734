import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { SAMPLES } from './support/samples.js';

const stdlib = new Stdlib();

test('is_string is true for a string', () => {
  assert.equal(stdlib.call('fn_is_string', 'a string'), { value: true });
});

test('is_string is false for every other kind', () => {
  for (const [kind, value] of SAMPLES) {
    assert.equal(stdlib.call('fn_is_string', value), { value: kind === 'string' }, kind);
  }
});

test.run();
