import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Regex } from '../../../abi/values.js';

const stdlib = new Stdlib();
const replace = (...args: unknown[]) => stdlib.call('fn_replace', ...args);

test('upstream examples', () => {
  assert.equal(replace('Apples and Bananas', 'and', 'not'), { value: 'Apples not Bananas' });
  assert.equal(replace('Apples and Bananas', new Regex('(?i)bananas'), 'Pineapples'), {
    value: 'Apples and Pineapples',
  });
  assert.equal(replace('Bananas and Bananas', 'Bananas', 'Pineapples', 1n), { value: 'Pineapples and Bananas' });
  assert.equal(replace('foo123bar', new Regex('foo(?P<num>\\d+)bar'), '$num'), { value: '123' });
  assert.equal(replace('foobar', 'o', 'i'), { value: 'fiibar' });
});

test('count: first n matches, all when negative, none when zero', () => {
  assert.equal(replace('aaa', 'a', 'b', 2n), { value: 'bba' });
  assert.equal(replace('aaa', 'a', 'b', -2n), { value: 'bbb' });
  assert.equal(replace('aaa', 'a', 'b', 0n), { value: 'aaa' });
  assert.equal(replace('abcb', new Regex('b'), 'x', 1n), { value: 'axcb' });
  assert.equal(replace('aaa', new Regex('a'), 'x', 0n), { value: 'aaa' });
  assert.equal(replace('aaa', new Regex('a'), 'x', -5n), { value: 'xxx' });
});

test('a string pattern is literal; an empty one matches at every character boundary', () => {
  assert.equal(replace('abc', 'b', '$0'), { value: 'a$0c' });
  assert.equal(replace('aaa', '', '-'), { value: '-a-a-a-' });
  assert.equal(replace('héllo', '', '-'), { value: '-h-é-l-l-o-' });
  assert.equal(replace('abc', 'x', '-'), { value: 'abc' });
});

test("regex replacements expand Rust's $ references", () => {
  const abc = (template: string) => replace('abc', new Regex('(?P<n>b)'), template);
  assert.equal(abc('[$1]'), { value: 'a[b]c' });
  assert.equal(abc('[$n]'), { value: 'a[b]c' });
  assert.equal(abc('[$0]'), { value: 'a[b]c' });
  assert.equal(abc('[$1x]'), { value: 'a[]c' }, 'the longest name is taken: 1x');
  assert.equal(abc('[${1}x][${n}x]'), { value: 'a[bx][bx]c' });
  assert.equal(abc('[$2][$zz]'), { value: 'a[][]c' });
  assert.equal(abc('[$$][$][$ x][${]'), { value: 'a[$][$][$ x][${]c' });
  assert.equal(replace('abc', new Regex('(b)?c'), '[$1]'), { value: 'a[b]' });
  assert.equal(replace('ac', new Regex('(b)?c'), '[$1]'), { value: 'a[]' });
  const first = (template: string) => replace('ac', new Regex('(?P<first>a)(b)?(c)'), template);
  assert.equal(first('$first|$1|$2|$3|$0'), { value: 'a|a||c|ac' });
  assert.equal(first('${first}x|$firstx|${+3}|${}|${01}'), { value: 'ax||c||a' });
  assert.equal(first('$$|$|$-|${x'), { value: '$|$|$-|${x' });
  assert.equal(replace('aaa', new Regex('a'), '$$'), { value: '$$$' });
});

test('regex matches follow Rust: no empty match right after a match', () => {
  assert.equal(replace('xay', new Regex('a*'), '-'), { value: '-x-y-' });
  assert.equal(replace('abc', new Regex(''), '-'), { value: '-a-b-c-' });
  assert.equal(replace('😀é', new Regex(''), '-'), { value: '-😀-é-' });
  assert.equal(replace('héllo wörld', new Regex('ö'), 'o'), { value: 'héllo world' });
});

test('invalid UTF-8 reads as U+FFFD; other kinds fail', () => {
  assert.equal(replace(new Uint8Array([0x61, 0xff]), 'a', 'b'), { value: 'b\uFFFD' });
  assert.equal(replace('a', null, 'b'), { error: 'expected string or regex, got null' });
  assert.equal(replace('a', 'a', 1n), { error: 'expected string, got integer' });
  assert.equal(replace('a', 'a', 'b', true), { error: 'expected integer, got boolean' });
});

test.run();
