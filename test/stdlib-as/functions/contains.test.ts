import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const contains = (...args: unknown[]) => stdlib.call('fn_contains', ...args);

test('upstream examples', () => {
  assert.equal(contains('banana', 'AnA'), { value: false });
  assert.equal(contains('banana', 'AnA', false), { value: true });
});

test('case-insensitive matching compares Unicode lower case (not case folding)', () => {
  assert.equal(contains('ΣΑΣ', 'σας', false), { value: true });
  assert.equal(contains('İ', 'i', false), { value: true });
  assert.equal(contains('straße', 'STRASSE', false), { value: false });
  assert.equal(contains('ǅx', 'ǆ', false), { value: true });
});

test('the empty substring is everywhere; invalid UTF-8 reads as U+FFFD', () => {
  assert.equal(contains('abc', ''), { value: true });
  assert.equal(contains('', ''), { value: true });
  assert.equal(contains(new Uint8Array([0x61, 0xff]), new Uint8Array([0xfe])), { value: true });
});

test('arguments of other kinds fail', () => {
  assert.equal(contains(1n, 'a'), { error: 'expected string, got integer' });
  assert.equal(contains('a', null), { error: 'expected string, got null' });
  assert.equal(contains('a', 'a', 1n), { error: 'expected boolean, got integer' });
});

test.run();
