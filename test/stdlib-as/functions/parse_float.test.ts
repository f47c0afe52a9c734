import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const parseRemapFloat = (value: unknown) => stdlib.call('fn_parse_float', value);

test('upstream examples', () => {
  assert.equal(parseRemapFloat('-42'), { value: -42 });
  assert.equal(parseRemapFloat('42.38'), { value: 42.38 });
  assert.equal(parseRemapFloat('2.5e3'), { value: 2500 });
});

test("what Rust's f64 parser accepts: signs, bare points, exponents, infinities", () => {
  assert.equal(parseRemapFloat('+5'), { value: 5 });
  assert.equal(parseRemapFloat('.5'), { value: 0.5 });
  assert.equal(parseRemapFloat('5.'), { value: 5 });
  assert.equal(parseRemapFloat('1E3'), { value: 1000 });
  assert.ok(Object.is((parseRemapFloat('-0.0') as { value: number }).value, -0));
  assert.equal(parseRemapFloat('inf'), { value: Infinity });
  assert.equal(parseRemapFloat('-Infinity'), { value: -Infinity });
  assert.equal(parseRemapFloat('1e400'), { value: Infinity });
  assert.equal(parseRemapFloat('4.9e-324'), { value: 5e-324 });
  assert.equal(parseRemapFloat('0.30000000000000004'), { value: 0.30000000000000004 });
});

test('errors quote the text as Rust Debug does', () => {
  assert.equal(parseRemapFloat(''), {
    error: 'Invalid floating point number "": cannot parse float from empty string',
  });
  assert.equal(parseRemapFloat(' 5'), { error: 'Invalid floating point number " 5": invalid float literal' });
  assert.equal(parseRemapFloat('0x10'), { error: 'Invalid floating point number "0x10": invalid float literal' });
  assert.equal(parseRemapFloat('1e'), { error: 'Invalid floating point number "1e": invalid float literal' });
  assert.equal(parseRemapFloat('a"b\\c\n\t\r\0é\u0001\u007f'), {
    error: 'Invalid floating point number "a\\"b\\\\c\\n\\t\\r\\0é\\u{1}\\u{7f}": invalid float literal',
  });
  assert.equal(parseRemapFloat('NaN'), { error: 'NaN number not supported "NaN"' });
  assert.equal(parseRemapFloat('-nan'), { error: 'NaN number not supported "-nan"' });
  assert.equal(parseRemapFloat(true), { error: 'expected string, got boolean' });
});

test.run();
