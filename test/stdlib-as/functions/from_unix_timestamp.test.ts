import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Timestamp } from '../../../abi/values.js';

const stdlib = new Stdlib();

function from(value: unknown, unit?: string): string {
  const result = stdlib.call('fn_from_unix_timestamp', value, unit);
  return 'error' in result ? `error: ${result.error}` : String(result.value as Timestamp);
}

test('upstream examples', () => {
  assert.is(from(5n), '1970-01-01T00:00:05Z');
  assert.is(from(5000n, 'milliseconds'), '1970-01-01T00:00:05Z');
  assert.is(from(5000n, 'microseconds'), '1970-01-01T00:00:00.005Z');
  assert.is(from(5000n, 'nanoseconds'), '1970-01-01T00:00:00.000005Z');
});

test('negative values are before the epoch', () => {
  assert.is(from(-1n, 'milliseconds'), '1969-12-31T23:59:59.999Z');
  assert.is(from(-1n), '1969-12-31T23:59:59Z');
  assert.is(from(-(2n ** 63n), 'nanoseconds'), '1677-09-21T00:12:43.145224192Z');
  assert.is(from(2n ** 63n - 1n, 'nanoseconds'), '2262-04-11T23:47:16.854775807Z');
});

test("values beyond chrono's range and other kinds fail as VRL words it", () => {
  assert.is(from(8_210_266_876_799n), '+262142-12-31T23:59:59Z');
  assert.is(from(-8_334_601_228_800n), '-262143-01-01T00:00:00Z');
  assert.is(from(8_210_266_876_800n), 'error: unable to coerce 8210266876800 into timestamp');
  assert.is(from(-8_334_601_228_801n), 'error: unable to coerce -8334601228801 into timestamp');
  assert.is(from(8_210_266_876_799_999n, 'milliseconds'), '+262142-12-31T23:59:59.999Z');
  assert.is(from(8_210_266_876_800_000n, 'milliseconds'), 'error: unable to coerce 8210266876800000 into timestamp');
  assert.is(from(-(2n ** 63n), 'microseconds'), 'error: unable to coerce -9223372036854775808 into timestamp');
  assert.is(from(-8_334_601_228_800_000_000n, 'microseconds'), '-262143-01-01T00:00:00Z');
  assert.is(from(2n ** 63n - 1n), 'error: unable to coerce 9223372036854775807 into timestamp');
  assert.is(from(9_223_372_037n), '2262-04-11T23:47:17Z');
  assert.is(from('1'), 'error: unable to coerce string into timestamp');
  assert.is(from(1.5), 'error: unable to coerce float into timestamp');
});

test.run();
