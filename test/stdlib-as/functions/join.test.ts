import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const join = (...args: unknown[]) => stdlib.call('fn_join', ...args);

test('upstream examples', () => {
  assert.equal(join(['bring', 'us', 'together']), { value: 'bringustogether' });
  assert.equal(join(['sources', 'transforms', 'sinks'], ', '), { value: 'sources, transforms, sinks' });
});

test('empty arrays, one item, empty separators, lossy UTF-8', () => {
  assert.equal(join([]), { value: '' });
  assert.equal(join(['a'], '-'), { value: 'a' });
  assert.equal(join(['a', 'b'], ''), { value: 'ab' });
  assert.equal(join([new Uint8Array([0xff]), 'b'], new Uint8Array([0xfe])), { value: '\uFFFD\uFFFDb' });
});

test('every item must be a string', () => {
  assert.equal(join(['a', 1n]), { error: 'all array items must be strings' });
  assert.equal(join('a'), { error: 'expected array, got string' });
  assert.equal(join(['a'], 1n), { error: 'expected string, got integer' });
});

test.run();
