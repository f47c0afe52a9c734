import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Regex, Timestamp } from '../../../abi/values.js';

const stdlib = new Stdlib();
const toString = (value: unknown) => stdlib.call('fn_to_string', value);

test('strings stay; booleans, integers and null become their text', () => {
  assert.equal(toString('foo'), { value: 'foo' });
  assert.equal(toString(true), { value: 'true' });
  assert.equal(toString(false), { value: 'false' });
  assert.equal(toString(52n), { value: '52' });
  assert.equal(toString(-9223372036854775808n), { value: '-9223372036854775808' });
  assert.equal(toString(null), { value: '' });
});

test('floats print as Rust prints an f64: shortest digits, no exponent, no `.0`', () => {
  const cases: Array<[number, string]> = [
    [52.2, '52.2'],
    [1.5, '1.5'],
    [-0, '-0'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e21, '1000000000000000000000'],
    [1e-7, '0.0000001'],
    [123456789.123, '123456789.123'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
  ];
  for (const [f, text] of cases) assert.equal(toString(f), { value: text }, text);
});

test('timestamps print in RFC 3339 with 0, 3, 6 or 9 fractional digits', () => {
  assert.equal(toString(new Timestamp(1_577_836_800_000_000_000n)), { value: '2020-01-01T00:00:00Z' });
  assert.equal(toString(new Timestamp(1_577_836_800_123_400_000n)), { value: '2020-01-01T00:00:00.123400Z' });
  // chrono's RFC 3339: four-digit years from 0 to 9999, a sign outside them.
  assert.equal(toString(new Timestamp(253_402_300_799_000_000_000n)), { value: '9999-12-31T23:59:59Z' });
  assert.equal(toString(new Timestamp(253_402_300_800_000_000_001n)), { value: '+10000-01-01T00:00:00.000000001Z' });
  assert.equal(toString(new Timestamp(-62_135_596_800_000_000_000n)), { value: '0001-01-01T00:00:00Z' });
  assert.equal(toString(new Timestamp(-62_167_219_200_000_000_000n)), { value: '0000-01-01T00:00:00Z' });
  assert.equal(toString(new Timestamp(-62_167_219_200_500_000_000n)), { value: '-0001-12-31T23:59:59.500Z' });
  assert.equal(toString(new Timestamp(8_210_266_876_799_999_999_999n)), {
    value: '+262142-12-31T23:59:59.999999999Z',
  });
  assert.equal(toString(new Timestamp(-8_334_601_228_800_000_000_000n)), { value: '-262143-01-01T00:00:00Z' });
});

test('regexes and collections cannot be coerced', () => {
  assert.equal(toString([]), { error: 'unable to coerce array into string' });
  assert.equal(toString({}), { error: 'unable to coerce object into string' });
  assert.equal(toString(new Regex('foo')), { error: 'unable to coerce regex into string' });
});

test.run();
