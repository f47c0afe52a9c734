import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Regex } from '../../../abi/values.js';

const stdlib = new Stdlib();
const split = (...args: unknown[]) => stdlib.call('fn_split', ...args);

test('upstream examples', () => {
  assert.equal(split('apples and pears and bananas', ' and '), { value: ['apples', 'pears', 'bananas'] });
  assert.equal(split('apples and pears and bananas', ' and ', 2n), { value: ['apples', 'pears and bananas'] });
  assert.equal(split('foobar', 'b'), { value: ['foo', 'ar'] });
  assert.equal(split('barbaz', new Regex('ba')), { value: ['', 'r', 'z'] });
});

test('string patterns split as Rust str::splitn: empty pieces kept, an empty pattern splits characters', () => {
  assert.equal(split('a,b,,c', ','), { value: ['a', 'b', '', 'c'] });
  assert.equal(split(',a,', ','), { value: ['', 'a', ''] });
  assert.equal(split('', ','), { value: [''] });
  assert.equal(split('abc', ''), { value: ['', 'a', 'b', 'c', ''] });
  assert.equal(split('héllo', ''), { value: ['', 'h', 'é', 'l', 'l', 'o', ''] });
  assert.equal(split('abc', '', 2n), { value: ['', 'abc'] });
});

test('limit: at most that many pieces; zero or negative gives none', () => {
  assert.equal(split('a,b,c', ',', 1n), { value: ['a,b,c'] });
  assert.equal(split('a,b,c', ',', 10n), { value: ['a', 'b', 'c'] });
  assert.equal(split('a,b,c', ',', 0n), { value: [] });
  assert.equal(split('a,b,c', ',', -1n), { value: [] });
  assert.equal(split('a1b22c', new Regex('\\d+'), 2n), { value: ['a', 'b22c'] });
  assert.equal(split('a1b22c', new Regex('\\d+'), 9223372036854775807n), { value: ['a', 'b', 'c'] });
});

test('regex matches follow Rust: no empty match right after a match, pieces on character boundaries', () => {
  assert.equal(split('a1b22c', new Regex('\\d*')), { value: ['', 'a', 'b', 'c', ''] });
  assert.equal(split('abc', new Regex('')), { value: ['', 'a', 'b', 'c', ''] });
  assert.equal(split('😀é', new Regex('')), { value: ['', '😀', 'é', ''] });
  assert.equal(split('héllo wörld', new Regex(' ')), { value: ['héllo', 'wörld'] });
  assert.equal(split('AbAB', new Regex('(?i)b')), { value: ['A', 'A', ''] });
});

test('invalid UTF-8 reads as U+FFFD; other kinds fail', () => {
  assert.equal(split(new Uint8Array([0x61, 0xff, 0x2c, 0x62]), ','), { value: ['a\uFFFD', 'b'] });
  assert.equal(split('a', 1n), { error: 'expected string or regex, got integer' });
  assert.equal(split('a', ',', 'x'), { error: 'expected integer, got string' });
});

test.run();
