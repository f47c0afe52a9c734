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

test('ASCII of every length around the eight-byte steps, and non-ASCII after them', () => {
  const ascii = 'az AZ @[`{ 09 ~\x7f\x00 mixed Case';
  for (let n = 0; n <= ascii.length; n++) {
    const text = ascii.slice(0, n);
    assert.equal(upcase(text), { value: text.toUpperCase() }, text);
    assert.equal(stdlib.call('fn_downcase', text), { value: text.toLowerCase() }, text);
    assert.equal(upcase(`${text}é`), { value: `${text.toUpperCase()}É` }, text);
  }
});

test('invalid UTF-8 reads as U+FFFD', () => {
  assert.equal(upcase(new Uint8Array([0x61, 0xff, 0x62])), { value: 'A\uFFFDB' });
});

test('a value that is not a string fails', () => {
  assert.equal(upcase(1n), { error: 'expected string, got integer' });
});

test.run();
