import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const truncate = (...args: unknown[]) => stdlib.call('fn_truncate', ...args);

test('upstream examples', () => {
  assert.equal(truncate('A rather long sentence.', 11n, '...'), { value: 'A rather lo...' });
  assert.equal(truncate('A rather long sentence.', 11n, '[TRUNCATED]'), { value: 'A rather lo[TRUNCATED]' });
  assert.equal(truncate('foobar', 3n), { value: 'foo' });
});

test('the limit counts characters; the suffix comes only when something was cut', () => {
  assert.equal(truncate('héllo', 2n), { value: 'hé' });
  assert.equal(truncate('héllo', 2n, '…'), { value: 'hé…' });
  assert.equal(truncate('abc', 3n, '...'), { value: 'abc' });
  assert.equal(truncate('abc', 5n, '...'), { value: 'abc' });
  assert.equal(truncate('abc', 0n, '...'), { value: '...' });
  assert.equal(truncate('abc', -1n, '...'), { value: '...' });
  assert.equal(truncate('abc', -1n), { value: '' });
  assert.equal(truncate('', 0n, 'x'), { value: '' });
});

test('other kinds fail', () => {
  assert.equal(truncate('abc', '1'), { error: 'expected integer, got string' });
  assert.equal(truncate('abc', 1n, true), { error: 'expected string, got boolean' });
});

test.run();
