import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const slice = (...args: unknown[]) => stdlib.call('fn_slice', ...args);

test('upstream examples', () => {
  assert.equal(slice('Supercalifragilisticexpialidocious', 5n, 13n), { value: 'califrag' });
  assert.equal(slice('Supercalifragilisticexpialidocious', 5n, -14n), { value: 'califragilistic' });
  assert.equal(slice('foobar', 3n), { value: 'bar' });
  assert.equal(slice([0n, 1n, 2n], 1n), { value: [1n, 2n] });
});

test('strings are sliced by bytes, even inside a character', () => {
  assert.equal(slice('héllo', 1n, 3n), { value: 'é' });
  assert.equal(slice('héllo', 1n, 2n), { value: new Uint8Array([0xc3]) });
});

test('positions: negative from the end, end clamped, start checked against the length', () => {
  assert.equal(slice('foobar', 6n), { value: '' });
  assert.equal(slice('foobar', 0n, 100n), { value: 'foobar' });
  assert.equal(slice('abc', 1n, 1n), { value: '' });
  assert.equal(slice([1n, 2n, 3n], -1n), { value: [3n] });
  assert.equal(slice('foobar', 7n), { error: '"start" must be between "-6" and "6"' });
  assert.equal(slice('foobar', -10n), { error: '"start" must be between "-6" and "6"' });
  assert.equal(slice('', 1n), { error: '"start" must be between "0" and "0"' });
  assert.equal(slice('foobar', 3n, 2n), { error: '"end" must be greater or equal to "start"' });
  assert.equal(slice('foobar', -2n, -10n), { error: '"end" must be greater or equal to "start"' });
});

test('an array slice shares its items without changing the argument', () => {
  const array = stdlib.put([{ a: 1n }, [2n], 3n]);
  const result = stdlib.exports.fn_slice!(array, stdlib.put(1n), 0);
  assert.equal(stdlib.get(result), [[2n], 3n]);
  assert.equal(stdlib.get(array), [{ a: 1n }, [2n], 3n]);
});

test('other kinds fail', () => {
  assert.equal(slice(1n, 0n), { error: 'expected string or array, got integer' });
  assert.equal(slice('a', 'b'), { error: 'expected integer, got string' });
  assert.equal(slice('a', 0n, 1.5), { error: 'expected integer, got float' });
});

test.run();
