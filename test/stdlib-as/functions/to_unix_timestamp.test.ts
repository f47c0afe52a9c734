import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Timestamp } from '../../../abi/values.js';

const stdlib = new Stdlib();
const newYear2021 = new Timestamp(1_609_459_200_000_000_000n);

test('upstream examples: seconds by default, and each unit', () => {
  assert.equal(stdlib.call('fn_to_unix_timestamp', newYear2021), { value: 1_609_459_200n });
  assert.equal(stdlib.call('fn_to_unix_timestamp', newYear2021, 'milliseconds'), { value: 1_609_459_200_000n });
  assert.equal(stdlib.call('fn_to_unix_timestamp', newYear2021, 'microseconds'), { value: 1_609_459_200_000_000n });
  assert.equal(stdlib.call('fn_to_unix_timestamp', newYear2021, 'nanoseconds'), { value: 1_609_459_200_000_000_000n });
  assert.equal(stdlib.call('fn_to_unix_timestamp', newYear2021, 'seconds'), { value: 1_609_459_200n });
});

test('times before the epoch round down', () => {
  const halfSecondBefore = new Timestamp(-500_000_000n);
  assert.equal(stdlib.call('fn_to_unix_timestamp', halfSecondBefore), { value: -1n });
  assert.equal(stdlib.call('fn_to_unix_timestamp', halfSecondBefore, 'milliseconds'), { value: -500n });
  assert.equal(stdlib.call('fn_to_unix_timestamp', new Timestamp(-1n), 'microseconds'), { value: -1n });
  assert.equal(stdlib.call('fn_to_unix_timestamp', new Timestamp(-(2n ** 63n)), 'nanoseconds'), {
    value: -(2n ** 63n),
  });
});

test("chrono's whole range: seconds, milliseconds and microseconds always, nanoseconds within an i64", () => {
  const max = new Timestamp(8_210_266_876_799_999_999_999n); // +262142-12-31T23:59:59.999999999Z
  const min = new Timestamp(-8_334_601_228_800_000_000_000n); // -262143-01-01T00:00:00Z
  assert.equal(stdlib.call('fn_to_unix_timestamp', max), { value: 8_210_266_876_799n });
  assert.equal(stdlib.call('fn_to_unix_timestamp', max, 'milliseconds'), { value: 8_210_266_876_799_999n });
  assert.equal(stdlib.call('fn_to_unix_timestamp', max, 'microseconds'), { value: 8_210_266_876_799_999_999n });
  assert.equal(stdlib.call('fn_to_unix_timestamp', min, 'microseconds'), { value: -8_334_601_228_800_000_000n });
  const outOfRange = { error: "can't convert out of range timestamp" };
  assert.equal(stdlib.call('fn_to_unix_timestamp', max, 'nanoseconds'), outOfRange);
  assert.equal(stdlib.call('fn_to_unix_timestamp', min, 'nanoseconds'), outOfRange);
  assert.equal(stdlib.call('fn_to_unix_timestamp', new Timestamp(2n ** 63n), 'nanoseconds'), outOfRange);
  assert.equal(stdlib.call('fn_to_unix_timestamp', new Timestamp(-(2n ** 63n) - 1n), 'nanoseconds'), outOfRange);
  assert.equal(stdlib.call('fn_to_unix_timestamp', new Timestamp(2n ** 63n - 1n), 'nanoseconds'), {
    value: 2n ** 63n - 1n,
  });
});

test('a value of another kind', () => {
  assert.equal(stdlib.call('fn_to_unix_timestamp', 1n), { error: 'expected timestamp, got integer' });
});

test.run();
