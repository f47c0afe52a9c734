import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const startsWith = (...args: unknown[]) => stdlib.call('fn_starts_with', ...args);

test('upstream examples', () => {
  assert.equal(startsWith('The Needle In The Haystack', 'The Needle'), { value: true });
  assert.equal(startsWith('The Needle In The Haystack', 'the needle', false), { value: true });
  assert.equal(startsWith('foobar', 'F'), { value: false });
});

test('longer prefixes, empty prefixes, Unicode case', () => {
  assert.equal(startsWith('ab', 'abc'), { value: false });
  assert.equal(startsWith('ab', ''), { value: true });
  assert.equal(startsWith('Ébc', 'é', false), { value: true });
  assert.equal(startsWith('Ébc', 'é', true), { value: false });
  assert.equal(startsWith('a', 'a', 'yes'), { error: 'expected boolean, got string' });
});

test.run();
