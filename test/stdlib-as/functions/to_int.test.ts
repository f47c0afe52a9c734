import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Regex, Timestamp } from '../../../abi/values.js';

const stdlib = new Stdlib();
const toInt = (value: unknown) => stdlib.call('fn_to_int', value);

test('integers stay; floats truncate and saturate; booleans and null give 1 or 0', () => {
  assert.equal(toInt(5n), { value: 5n });
  assert.equal(toInt(5.6), { value: 5n });
  assert.equal(toInt(-5.6), { value: -5n });
  assert.equal(toInt(1e30), { value: 9223372036854775807n });
  assert.equal(toInt(-1e30), { value: -9223372036854775808n });
  assert.equal(toInt(true), { value: 1n });
  assert.equal(toInt(false), { value: 0n });
  assert.equal(toInt(null), { value: 0n });
});

test('timestamps give whole seconds since the epoch, rounded down', () => {
  assert.equal(toInt(new Timestamp(1_609_366_853_824_727_000n)), { value: 1609366853n });
  assert.equal(toInt(new Timestamp(-315_619_199_500_000_000n)), { value: -315619200n });
  assert.equal(toInt(new Timestamp(8_210_266_876_799_999_999_999n)), { value: 8_210_266_876_799n });
  assert.equal(toInt(new Timestamp(-8_334_601_228_799_500_000_000n)), { value: -8_334_601_228_800n });
});

test('strings are read as Rust reads an i64', () => {
  assert.equal(toInt('2'), { value: 2n });
  assert.equal(toInt('+5'), { value: 5n });
  assert.equal(toInt('-5'), { value: -5n });
  assert.equal(toInt('00000000000000000000000001'), { value: 1n });
  assert.equal(toInt('9223372036854775807'), { value: 9223372036854775807n });
  assert.equal(toInt('-9223372036854775808'), { value: -9223372036854775808n });
});

test("unreadable strings fail with Rust's reason", () => {
  const cases: Array<[string, string]> = [
    ['foobar', 'Invalid integer "foobar": invalid digit found in string'],
    ['0x1', 'Invalid integer "0x1": invalid digit found in string'],
    [' 5', 'Invalid integer " 5": invalid digit found in string'],
    ['1.5', 'Invalid integer "1.5": invalid digit found in string'],
    ['+', 'Invalid integer "+": invalid digit found in string'],
    ['-', 'Invalid integer "-": invalid digit found in string'],
    ['', 'Invalid integer "": cannot parse integer from empty string'],
    ['9223372036854775808', 'Invalid integer "9223372036854775808": number too large to fit in target type'],
    ['99999999999999999999x', 'Invalid integer "99999999999999999999x": number too large to fit in target type'],
    ['-9223372036854775809', 'Invalid integer "-9223372036854775809": number too small to fit in target type'],
    ['x99999999999999999999', 'Invalid integer "x99999999999999999999": invalid digit found in string'],
  ];
  for (const [text, error] of cases) assert.equal(toInt(text), { error }, text);
});

test("the quoted text escapes what Rust's Debug escapes", () => {
  assert.equal(toInt('a"b\n\u0001é\t\\\r\u007f\'\u00a0\u200b'), {
    error: 'Invalid integer "a\\"b\\n\\u{1}é\\t\\\\\\r\\u{7f}\'\\u{a0}\\u{200b}": invalid digit found in string',
  });
  assert.equal(toInt('e\u0301x\u0300'), {
    error: 'Invalid integer "e\\u{301}x\\u{300}": invalid digit found in string',
  });
  assert.equal(toInt('\u00ad\ue000\ufeff\u{1f600}\u2028\u0085 \u3000\u1680'), {
    error:
      'Invalid integer "\\u{ad}\\u{e000}\\u{feff}\u{1f600}\\u{2028}\\u{85} \\u{3000}\\u{1680}": invalid digit found in string',
  });
  assert.equal(toInt(new Uint8Array([0x61, 0xff, 0x62])), {
    error: 'Invalid integer "a\ufffdb": invalid digit found in string',
  });
});

test('regexes and collections cannot be coerced', () => {
  assert.equal(toInt([]), { error: 'unable to coerce array into integer' });
  assert.equal(toInt({}), { error: 'unable to coerce object into integer' });
  assert.equal(toInt(new Regex('foo')), { error: 'unable to coerce regex into integer' });
});

test.run();
