// Component id globs as Vector's tap matches them (Rust's `glob` crate): wildcards, classes, and the
// crate's errors for patterns it rejects.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileGlob, GlobError } from '../../../host/topology/glob.js';

test('wildcards, classes and negated classes match whole ids; `*` crosses dots', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['*', ['a', 'route.errors', ''], []],
    ['in*', ['in', 'input', 'in.port'], ['xin']],
    ['a?c', ['abc', 'a.c'], ['ac', 'abbc']],
    ['[ab]x', ['ax', 'bx'], ['cx', 'abx']],
    ['[a-c]', ['a', 'b', 'c'], ['d']],
    ['[!a-c]', ['d', '.'], ['a', 'c']],
    ['[]]', [']'], ['a']],
    ['[z-a]', [], ['a', 'z']],
    ['a.b', ['a.b'], ['axb']],
    ['**', ['anything.at.all'], []],
    ['a/**/b', ['a/b', 'a/x/y/b'], ['ab']],
    ['(x)+', ['(x)+'], ['x', 'xx']],
  ];
  for (const [pattern, matching, others] of cases) {
    const test = compileGlob(pattern);
    for (const id of matching) assert.ok(test(id), `${pattern} matches ${id}`);
    for (const id of others) assert.not.ok(test(id), `${pattern} does not match ${id}`);
  }
});

test("invalid patterns are refused in the crate's words", () => {
  const cases: Array<[string, string]> = [
    ['[', 'Pattern syntax error near position 0: invalid range pattern'],
    ['a[b', 'Pattern syntax error near position 1: invalid range pattern'],
    ['[!]', 'Pattern syntax error near position 0: invalid range pattern'],
    ['***', 'Pattern syntax error near position 2: wildcards are either regular `*` or recursive `**`'],
    ['a**', 'Pattern syntax error near position 0: recursive wildcards must form a single path component'],
    ['**a', 'Pattern syntax error near position 2: recursive wildcards must form a single path component'],
  ];
  for (const [pattern, message] of cases) {
    assert.throws(
      () => compileGlob(pattern),
      (error: Error) => error instanceof GlobError && error.message === message,
      pattern,
    );
  }
});

test.run();
