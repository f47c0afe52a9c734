// parse_regex, parse_regex_all, match, match_any, match_array, find and sieve on the wasm regex engine: edge cases beyond their examples.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Regex } from '../../../abi/values.js';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const re = (pattern: string) => new Regex(pattern);
const INVALID_UTF8 = new Uint8Array([0x61, 0xff, 0x62]);
/** The call's value (objects as plain objects), or `error: message`. */
function run(name: string, ...args: unknown[]): unknown {
  const result = stdlib.call(`fn_${name}`, ...args);
  return 'error' in result
    ? `error: ${result.error}`
    : JSON.parse(JSON.stringify(result.value, (_, v) => (typeof v === 'bigint' ? Number(v) : v)));
}
const parse = (value: unknown, pattern: string, numeric?: unknown) => run('parse_regex', value, re(pattern), numeric);

test('parse_regex: upstream examples', () => {
  assert.equal(parse('first group and second group.', '(?P<number>.*?) group'), { number: 'first' });
  assert.equal(parse('first group and second group.', '(\\w+) group', true), { 0: 'first group', 1: 'first' });
  assert.equal(parse('8.7.6.5 - zorp', '^(?P<host>[\\w\\.]+) - (?P<user>[\\w]+)'), { host: '8.7.6.5', user: 'zorp' });
  assert.equal(parse('8.7.6.5 - zorp', '^(?P<host>[\\w\\.]+) - (?P<user>[\\w]+)', true), {
    0: '8.7.6.5 - zorp',
    1: '8.7.6.5',
    2: 'zorp',
    host: '8.7.6.5',
    user: 'zorp',
  });
});

test('parse_regex: named groups that did not take part are null; numbered groups skip them', () => {
  assert.equal(parse('abc', '(?P<a>x)?b(?P<c>c)'), { a: null, c: 'c' });
  assert.equal(parse('abc', '(x)?b(c)', true), { 0: 'bc', 1: 'c' });
  assert.equal(parse('abc', '(?P<a>x)?b(c)', true), { 0: 'bc', 1: 'c', a: null });
  assert.equal(parse('abc', 'b'), {});
  assert.equal(parse('abc', 'b', false), {});
  // Keys sort byte-wise: "10" before "2".
  assert.equal(Object.keys(parse('abcdefghijk', '(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)', true) as object).length, 12);
});

test('parse_regex: no match, and arguments of other kinds, fail; invalid UTF-8 reads as U+FFFD', () => {
  assert.equal(parse('abc', 'x'), 'error: could not find any pattern matches');
  assert.equal(parse(true, 'x'), 'error: expected string, got boolean');
  assert.equal(parse('abc', 'b', 1n), 'error: expected boolean, got integer');
  assert.equal(parse(new Uint8Array([0x61, 0xff]), '(?P<x>a.)'), { x: 'a\uFFFD' });
});

test('parse_regex_all: every match, in order; none gives an empty array; kinds by their exact type', () => {
  assert.equal(run('parse_regex_all', 'a1 b2', re('(?P<l>[a-z])(\\d)'), true), [
    { 0: 'a1', 1: 'a', 2: '1', l: 'a' },
    { 0: 'b2', 1: 'b', 2: '2', l: 'b' },
  ]);
  assert.equal(run('parse_regex_all', '', re('x')), []);
  assert.equal(run('parse_regex_all', 1n, re('x')), 'error: expected string, got integer');
  // A collection by its exact type, keys in byte order, as VRL (checked against the reference engine).
  assert.equal(
    run('parse_regex_all', [{ é: 1.5, b: [] }, true], re('x')),
    'error: expected string, got [{ b: array, "é": float }, boolean]',
  );
});

test('parse_regex_all: every match, empty matches by the regex crate rule', () => {
  assert.equal(run('parse_regex_all', 'a1b22', re('(?P<d>\\d+)')), [{ d: '1' }, { d: '22' }]);
  assert.equal(run('parse_regex_all', 'a1', re('(?P<d>\\d*)')), [{ d: '' }, { d: '1' }]);
  assert.equal(run('parse_regex_all', 'xyz', re('(?P<d>\\d)')), []);
  assert.equal(run('parse_regex_all', 'é1', re('(\\d)?'), true), [{ 0: '' }, { 0: '1', 1: '1' }]);
});

test('find: byte positions for strings and regexes, offsets, Unicode', () => {
  assert.is(run('find', 'héllo héllo', 'llo', 5n), 10);
  assert.is(run('find', 'héllo', re('l+')), 3);
  assert.is(run('find', 'ab', ''), 0);
  assert.is(run('find', 'ab', '', 2n), 2);
  assert.is(run('find', 'ab', '', 3n), null);
  assert.is(run('find', 'abc', 'c', -5n), 2);
  assert.is(run('find', 'éa', re('a'), 1n), 2); // an offset inside a character moves to the next one
  assert.is(run('find', 'abc', re('^b'), 1n), null); // `^` keeps its meaning at an offset (find_at)
  assert.is(run('find', 'abc', re('b'), 9n), null);
  assert.is(run('find', INVALID_UTF8, new Uint8Array([0xff])), 1);
  assert.is(run('find', 'x'.repeat(1 << 20) + 'y', 'y'), 1 << 20);
  assert.is(run('find', 'x'.repeat(1 << 20) + 'y', re('y')), 1 << 20);
  assert.is(run('find', 1n, 'a'), 'error: expected string, got integer');
});

test('match', () => {
  assert.is(run('match', 'Ünïcode', re('(?i)ü')), true);
  assert.is(run('match', '', re('^$')), true);
  assert.is(run('match', INVALID_UTF8, re('a\uFFFDb')), true);
  assert.is(run('match', 'a', 'a'), 'error: expected regex, got string');
});

test('match_any, match_array', () => {
  assert.is(run('match_any', 'abc', []), false);
  assert.is(run('match_any', 'abc', [re('x'), re('c$')]), true);
  assert.is(run('match_any', 'abc', [re('a'), 'b']), 'error: expected regex, got string');
  assert.is(run('match_array', [1n, 'foo'], re('foo')), true);
  assert.is(run('match_array', [1n, 'foo'], re('foo'), true), false);
  assert.is(run('match_array', ['foo', 'afoo'], re('foo'), true), true);
  assert.is(run('match_array', [], re('foo'), true), true);
  assert.is(run('match_array', [], re('foo')), false);
  assert.is(run('match_array', 'foo', re('foo')), 'error: expected array, got string');
});

test('sieve: kept characters, single and repeated replacements, Unicode', () => {
  assert.is(run('sieve', 'a--b-c', re('[a-z]'), '_', '~'), 'a~b_c');
  assert.is(run('sieve', '--', re('[a-z]'), '_', '~'), '~');
  assert.is(run('sieve', 'x', re('[a-z]'), '_', '~'), 'x');
  assert.is(run('sieve', '', re('[a-z]')), '');
  assert.is(run('sieve', 'a😀b', re('\\p{L}')), 'ab');
  assert.is(run('sieve', 'aéb-c', re('^.$')), 'aéb-c', 'each character is tested alone');
  assert.is(run('sieve', 'a1b22', re('[a-z]'), '#'), 'a#b');
});

test.run();
