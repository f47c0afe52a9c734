import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse_regex } from '../../../runtime/js-functions/parse_regex.js';
import { Regex, type RemapValue } from '../../../abi/values.js';
import { jsContext } from '../../support/js-context.js';

function parse(value: RemapValue, pattern: string, numericGroups: RemapValue = null): RemapValue {
  try {
    return { ...(parse_regex([value, new Regex(pattern), numericGroups], jsContext()) as object) };
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

test('upstream examples', () => {
  assert.equal(parse('first group and second group.', '(?P<number>.*?) group'), { number: 'first' });
  assert.equal(parse('first group and second group.', '(\\w+) group', true), { 0: 'first group', 1: 'first' });
  assert.equal(parse('8.7.6.5 - zorp', '^(?P<host>[\\w\\.]+) - (?P<user>[\\w]+)'), { host: '8.7.6.5', user: 'zorp' });
  assert.equal(parse('8.7.6.5 - zorp', '^(?P<host>[\\w\\.]+) - (?P<user>[\\w]+)', true), {
    0: '8.7.6.5 - zorp', 1: '8.7.6.5', 2: 'zorp', host: '8.7.6.5', user: 'zorp',
  });
});

test('named groups that did not take part are null; numbered groups skip them', () => {
  assert.equal(parse('abc', '(?P<a>x)?b(?P<c>c)'), { a: null, c: 'c' });
  assert.equal(parse('abc', '(x)?b(c)', true), { 0: 'bc', 1: 'c' });
  assert.equal(parse('abc', '(?P<a>x)?b(c)', true), { 0: 'bc', 1: 'c', a: null });
  assert.equal(parse('abc', 'b'), {});
  assert.equal(parse('abc', 'b', false), {});
});

test('no match, and arguments of other kinds, fail', () => {
  assert.equal(parse('abc', 'x'), 'error: could not find any pattern matches');
  assert.equal(parse(true, 'x'), 'error: expected string, got boolean');
  assert.equal(parse('abc', 'b', 1n), 'error: expected boolean, got integer');
});

test('invalid UTF-8 reads as U+FFFD', () => {
  assert.equal(parse(new Uint8Array([0x61, 0xff]), '(?P<x>a.)'), { x: 'a\uFFFD' });
});

test.run();
