import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Timestamp } from '../../../abi/values.js';

test("now() is a timestamp from the runtime's clock", () => {
  const before = BigInt(Date.now()) * 1_000_000n;
  const result = new Stdlib().call('fn_now');
  const after = BigInt(Date.now() + 1) * 1_000_000n;
  assert.ok('value' in result && result.value instanceof Timestamp);
  const { nanos } = (result as { value: Timestamp }).value;
  assert.ok(nanos >= before - 1_000_000n && nanos <= after, `${nanos} within [${before}, ${after}]`);
});

test.run();
