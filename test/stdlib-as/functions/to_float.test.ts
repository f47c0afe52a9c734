import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Regex, Timestamp } from '../../../abi/values.js';

const stdlib = new Stdlib();
const toFloat = (value: unknown) => stdlib.call('fn_to_float', value);

test('floats stay; integers widen; booleans and null give 1.0 or 0.0', () => {
  assert.equal(toFloat(5.6), { value: 5.6 });
  assert.equal(toFloat(5n), { value: 5 });
  assert.equal(toFloat(true), { value: 1 });
  assert.equal(toFloat(false), { value: 0 });
  assert.equal(toFloat(null), { value: 0 });
});

test('timestamps give seconds since the epoch with the fraction', () => {
  assert.equal(toFloat(new Timestamp(1_609_366_853_824_727_000n)), { value: 1609366853.824727 });
  assert.equal(toFloat(new Timestamp(-315_619_199_500_000_000n)), { value: -315619199.5 });
  // VRL goes through i64 nanoseconds (years 1677–2262) and fails beyond them.
  assert.equal(toFloat(new Timestamp(253_402_300_799_000_000_000n)), { error: "can't convert out of range timestamp" });
});

test('strings are read as Rust reads an f64', () => {
  const cases: Array<[string, number]> = [
    ['3.145', 3.145],
    ['1e3', 1000],
    ['+1.5', 1.5],
    ['.5', 0.5],
    ['5.', 5],
    ['1.5E-3', 0.0015],
    ['-0', -0],
    ['inf', Infinity],
    ['-infinity', -Infinity],
    ['INF', Infinity],
    ['1e400', Infinity],
  ];
  for (const [text, value] of cases) assert.equal(toFloat(text), { value }, text);
});

test("unreadable strings and NaN fail with VRL's messages", () => {
  const cases: Array<[string, string]> = [
    ['foobar', 'Invalid floating point number "foobar": invalid float literal'],
    [' 1', 'Invalid floating point number " 1": invalid float literal'],
    ['1_000', 'Invalid floating point number "1_000": invalid float literal'],
    ['1e', 'Invalid floating point number "1e": invalid float literal'],
    ['0x10', 'Invalid floating point number "0x10": invalid float literal'],
    ['', 'Invalid floating point number "": cannot parse float from empty string'],
    ['NaN', 'NaN number not supported "NaN"'],
    ['-nan', 'NaN number not supported "-nan"'],
  ];
  for (const [text, error] of cases) assert.equal(toFloat(text), { error }, text);
});

test('regexes and collections cannot be coerced', () => {
  assert.equal(toFloat([]), { error: 'unable to coerce array into float' });
  assert.equal(toFloat({}), { error: 'unable to coerce object into float' });
  assert.equal(toFloat(new Regex('foo')), { error: 'unable to coerce regex into float' });
});

test.run();
