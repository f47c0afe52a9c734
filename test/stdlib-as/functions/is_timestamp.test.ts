import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Timestamp } from '../../../abi/values.js';
import { SAMPLES } from './support/samples.js';

const stdlib = new Stdlib();

test('is_timestamp is true for a timestamp', () => {
  assert.equal(stdlib.call('fn_is_timestamp', new Timestamp(1_616_774_400_000_000_000n)), { value: true });
});

test('is_timestamp is false for every other kind', () => {
  for (const [kind, value] of SAMPLES) {
    assert.equal(stdlib.call('fn_is_timestamp', value), { value: kind === 'timestamp' }, kind);
  }
});

test.run();
