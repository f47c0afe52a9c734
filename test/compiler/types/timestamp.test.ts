// Timestamp literals are read as VRL reads them, with chrono's `DateTime<Utc>::from_str` (the relaxed RFC 3339
// of `%+`), over chrono's whole range; E601 only where chrono refuses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Timestamp } from '../../../abi/values.js';
import { readTimestampLiteral } from '../../../compiler/types/timestamp.js';

const read = (text: string) => {
  const result = readTimestampLiteral(text);
  return 'nanos' in result ? new Timestamp(result.nanos).toString() : `E601: ${result.problem}`;
};

test("four-digit years and signed years of any width, to the ends of chrono's range", () => {
  assert.is(read('9999-12-31T23:59:59Z'), '9999-12-31T23:59:59Z');
  assert.is(read('0000-01-01T00:00:00+01:00'), '-0001-12-31T23:00:00Z');
  assert.is(read('9999-12-31T23:59:59.5-01:00'), '+10000-01-01T00:59:59.500Z');
  assert.is(read('-0001-01-01T00:00:00Z'), '-0001-01-01T00:00:00Z');
  assert.is(read('+10000-01-01T00:00:00Z'), '+10000-01-01T00:00:00Z');
  assert.is(read('+2020-01-01T00:00:00Z'), '2020-01-01T00:00:00Z');
  assert.is(read('+262142-12-31T23:59:59.999999999Z'), '+262142-12-31T23:59:59.999999999Z');
  assert.is(read('-262143-01-01T00:00:00Z'), '-262143-01-01T00:00:00Z');
  assert.is(read('+262143-01-01T00:00:00Z'), 'E601: input is out of range');
  assert.is(read('-262143-01-01T00:00:00+01:00'), 'E601: input is out of range');
  assert.is(read('+262142-12-31T23:59:59-01:00'), 'E601: input is out of range');
  assert.is(read('12020-01-01T00:00:00Z'), 'E601: input contains invalid characters');
});

test('the relaxed forms chrono reads, and its errors', () => {
  assert.is(read('2020-1-1T0:0:0Z'), '2020-01-01T00:00:00Z');
  assert.is(read(' 2020 -01-01 00:00:00 Z '), '2020-01-01T00:00:00Z');
  assert.is(read('2020-01-01t00:00:00z'), '2020-01-01T00:00:00Z');
  assert.is(read('2020-01-01T00:00:00+0100'), '2019-12-31T23:00:00Z');
  assert.is(read('2020-01-01T00:00:00UTC'), '2020-01-01T00:00:00Z');
  assert.is(read('2020-01-01T00:00:00.1234567891Z'), '2020-01-01T00:00:00.123456789Z');
  assert.is(read('0000-02-29T00:00:00Z'), '0000-02-29T00:00:00Z');
  assert.is(read('2020-02-30T00:00:00Z'), 'E601: input is out of range');
  assert.is(read('2020-01-01T00:00:00+24:00'), 'E601: input is out of range');
  assert.is(read('2020-01-01T00:00:00'), 'E601: premature end of input');
  assert.is(read('2020-01-01T00:00Z'), 'E601: input contains invalid characters');
  assert.is(read('2020-01-01T00:00:00Zx'), 'E601: trailing input');
});

test.run();
