import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Regex } from '../../../abi/values.js';
import { SAMPLES } from './support/samples.js';

const stdlib = new Stdlib();

test('is_regex is true for a regex', () => {
  assert.equal(stdlib.call('fn_is_regex', new Regex('pattern')), { value: true });
});

test('is_regex is false for every other kind', () => {
  for (const [kind, value] of SAMPLES) {
    assert.equal(stdlib.call('fn_is_regex', value), { value: kind === 'regex' }, kind);
  }
});

test.run();
