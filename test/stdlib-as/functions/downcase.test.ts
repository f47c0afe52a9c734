import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const downcase = (value: unknown) => stdlib.call('fn_downcase', value);

test('upstream examples', () => {
  assert.equal(downcase('Hello, World!'), { value: 'hello, world!' });
  assert.equal(downcase('FOO 2 BAR'), { value: 'foo 2 bar' });
});

test('Unicode lower case: İ becomes i with a dot above, a word-final Σ becomes ς', () => {
  assert.equal(downcase('İ'), { value: 'i\u0307' });
  assert.equal(downcase('ΣΑΣ ΣΑΣ.'), { value: 'σας σας.' });
  assert.equal(downcase('ÀÉÎ Ⓐ 𐐀'), { value: 'àéî ⓐ 𐐨' });
});

test('invalid UTF-8 reads as U+FFFD; other kinds fail', () => {
  assert.equal(downcase(new Uint8Array([0x41, 0xc3])), { value: 'a\uFFFD' });
  assert.equal(downcase(null), { error: 'expected string, got null' });
});

test.run();
