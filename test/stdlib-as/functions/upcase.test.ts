import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const upcase = (value: unknown) => stdlib.call('fn_upcase', value);

test('upstream example', () => {
  assert.equal(upcase('Hello, World!'), { value: 'HELLO, WORLD!' });
});

test('Unicode upper case, with mappings to several characters', () => {
  assert.equal(upcase('straße'), { value: 'STRASSE' });
  assert.equal(upcase('ﬁx ǅ éà ŉ ΐ'), { value: 'FIX Ǆ ÉÀ \u02bcN \u0399\u0308\u0301' });
  assert.equal(upcase('ⓐ 😀 𐐨'), { value: 'Ⓐ 😀 𐐀' });
  assert.equal(upcase(''), { value: '' });
});

test('invalid UTF-8 reads as U+FFFD', () => {
  assert.equal(upcase(new Uint8Array([0x61, 0xff, 0x62])), { value: 'A\uFFFDB' });
});

test('a value that is not a string fails', () => {
  assert.equal(upcase(1n), { error: 'expected string, got integer' });
});

test.run();
