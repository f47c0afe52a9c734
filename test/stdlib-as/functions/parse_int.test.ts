import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const parseRemapInt = (...args: unknown[]) => stdlib.call('fn_parse_int', ...args);
const invalidDigit = { error: 'could not parse integer: invalid digit found in string' };

test('upstream examples', () => {
  assert.equal(parseRemapInt('-42'), { value: -42n });
  assert.equal(parseRemapInt('0b1001'), { value: 9n });
  assert.equal(parseRemapInt('0o42'), { value: 34n });
  assert.equal(parseRemapInt('0x2a'), { value: 42n });
  assert.equal(parseRemapInt('2a', 17n), { value: 44n });
});

test('without a base: a prefix picks it, another leading zero means octal, the sign only in base 10', () => {
  assert.equal(parseRemapInt('+5'), { value: 5n });
  assert.equal(parseRemapInt('0'), { value: 0n });
  assert.equal(parseRemapInt('00'), { value: 0n });
  assert.equal(parseRemapInt('0x2A'), { value: 42n });
  assert.equal(parseRemapInt('08'), invalidDigit);
  assert.equal(parseRemapInt('0X2a'), invalidDigit);
  assert.equal(parseRemapInt('-0x2a'), invalidDigit);
  assert.equal(parseRemapInt('0b102'), invalidDigit);
  assert.equal(parseRemapInt('0x'), { error: 'could not parse integer: cannot parse integer from empty string' });
  assert.equal(parseRemapInt(''), { error: 'value is empty' });
});

test("with a base: Rust's from_str_radix, letters in either case", () => {
  assert.equal(parseRemapInt('zz', 36n), { value: 1295n });
  assert.equal(parseRemapInt('ZZ', 36n), { value: 1295n });
  assert.equal(parseRemapInt('-ff', 16n), { value: -255n });
  assert.equal(parseRemapInt('0x2a', 16n), invalidDigit);
  assert.equal(parseRemapInt('2a', 10n), invalidDigit);
  assert.equal(parseRemapInt('-', 10n), invalidDigit);
  assert.equal(parseRemapInt(' 5', 10n), invalidDigit);
  assert.equal(parseRemapInt('', 10n), { error: 'could not parse integer: cannot parse integer from empty string' });
});

test('the i64 range', () => {
  assert.equal(parseRemapInt('9223372036854775807'), { value: 9223372036854775807n });
  assert.equal(parseRemapInt('-9223372036854775808'), { value: -9223372036854775808n });
  assert.equal(parseRemapInt('9223372036854775808'), {
    error: 'could not parse integer: number too large to fit in target type',
  });
  assert.equal(parseRemapInt('-9223372036854775809'), {
    error: 'could not parse integer: number too small to fit in target type',
  });
  assert.equal(parseRemapInt('zzzzzzzzzzzzzz', 36n), {
    error: 'could not parse integer: number too large to fit in target type',
  });
});

test('a base outside 2 to 36 is refused, naming the value as VRL displays it', () => {
  assert.equal(parseRemapInt('12', 1n), { error: 'invalid base "12": must be be between 2 and 36 (inclusive)' });
  assert.equal(parseRemapInt('a"b\\c\n', 37n), {
    error: 'invalid base "a\\"b\\\\c\\n": must be be between 2 and 36 (inclusive)',
  });
});

test('other kinds fail', () => {
  assert.equal(parseRemapInt(42n), { error: 'expected string, got integer' });
  assert.equal(parseRemapInt('42', '10'), { error: 'expected integer, got string' });
});

test.run();
