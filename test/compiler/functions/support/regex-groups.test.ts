import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { captureGroups, captureObject } from '../../../../compiler/functions/support/regex-groups.js';
import { describe, fieldOf } from '../../../../compiler/types/kind.js';

test('counts plain and named groups, in both named-group spellings', () => {
  assert.equal(captureGroups('(\\w+) (?P<user>\\w+) (?<host>[a-z]+)'), { count: 3, names: ['user', 'host'] });
});

test('non-capturing groups and flags do not count', () => {
  assert.equal(captureGroups('(?i)(?:ab)+(?i:cd)(?-i)'), { count: 0, names: [] });
});

test('as Rust counts them: a comment of an extended pattern holds no group; an invalid pattern is unknown', () => {
  assert.equal(captureGroups('(?x) (?P<a>\\d) # (a comment)'), { count: 1, names: ['a'] });
  assert.is(captureGroups('(?=x)'), undefined);
  assert.is(captureGroups('(a'), undefined);
});

test('escaped parentheses and parentheses inside classes do not count', () => {
  assert.equal(captureGroups('\\(a\\)[()]([)(])'), { count: 1, names: [] });
  assert.equal(captureGroups('[]()](x)'), { count: 1, names: [] });
  assert.equal(captureGroups('[^]()](x)'), { count: 1, names: [] });
});

test('a known pattern gives numbered groups that may be null and named groups that are strings', () => {
  const match = captureObject(captureGroups('(?P<number>.*?) group'));
  assert.equal([...match.object!.known.keys()], ['0', '1', 'number']);
  assert.is(describe(fieldOf(match, '1')), 'string or null');
  assert.is(describe(fieldOf(match, 'number')), 'string');
  assert.is(match.object!.unknown, undefined);
});

test('an unknown pattern gives strings or nulls under any key', () => {
  assert.is(describe(fieldOf(captureObject(undefined), 'anything')), 'string or null');
});

test.run();
