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

test('a value of another kind', () => {
  assert.equal(stdlib.call('fn_to_unix_timestamp', 1n), { error: 'expected timestamp, got integer' });
});

test.run();
