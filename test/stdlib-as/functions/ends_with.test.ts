import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const endsWith = (...args: unknown[]) => stdlib.call('fn_ends_with', ...args);

test('upstream examples', () => {
  assert.equal(endsWith('The Needle In The Haystack', 'The Haystack'), { value: true });
  assert.equal(endsWith('The Needle In The Haystack', 'the haystack', false), { value: true });
  assert.equal(endsWith('foobar', 'R'), { value: false });
});

test('longer suffixes, empty suffixes, Unicode case', () => {
  assert.equal(endsWith('ab', 'zab'), { value: false });
  assert.equal(endsWith('abc', '', false), { value: true });
  assert.equal(endsWith('xΣΑΣ', 'σας', false), { value: true });
  assert.equal(endsWith(['a'], 'a'), { error: 'expected string, got [string]' });
});

test.run();
