import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RustRegex } from '../../abi/regex.js';
import { expandReplacement, rustMatches, rustReplace, rustSplit, Utf8Offsets } from '../../abi/rust-regex.js';

const global = (pattern: string) => new RustRegex(pattern);
const spans = (pattern: string, text: string) => [...rustMatches(global(pattern), text)].map((m) => [m.start, m.end]);

test('matches skip an empty match where the previous match ended, and step over whole characters', () => {
  assert.equal(spans('\\d*', 'a1b22c'), [[0, 0], [1, 2], [3, 5], [6, 6]]);
  assert.equal(spans('a*', 'xay'), [[0, 0], [1, 2], [3, 3]]);
  assert.equal(spans('', '😀'), [[0, 0], [2, 2]]);
});

test('splitn keeps the rest in the last piece', () => {
  assert.equal(rustSplit(global(','), 'a,b,c', 2), [0, 1, 2, 5]);
  assert.equal(rustSplit(global(','), 'a,b,c', 1), [0, 5]);
  assert.equal(rustSplit(global('x'), '', 5), [0, 0]);
});

test('replacen replaces the first n matches, all when negative', () => {
  assert.equal(rustReplace(global('a'), 'aaa', 'b', 2), 'bba');
  assert.equal(rustReplace(global('a'), 'aaa', '$$', -1), '$$$');
  assert.equal(rustReplace(global('a'), 'xyz', 'b', -1), 'xyz');
});

test('replacement expansion', () => {
  const re = global('(?P<first>a)(b)?(c)');
  const m = re.exec('ac')!;
  assert.is(expandReplacement('$first|$1|$2|$3|$0', re, m), 'a|a||c|ac');
  assert.is(expandReplacement('${first}x|$firstx|${+3}|${}|${01}', re, m), 'ax||c||a');
  assert.is(expandReplacement('$$|$|$-|${x', re, m), '$|$|$-|${x');
});

test('UTF-8 offsets of UTF-16 indices', () => {
  const text = 'aé😀b';
  const offsets = new Utf8Offsets(text, Buffer.byteLength(text));
  assert.equal([0, 1, 2, 4, 5].map((i) => offsets.at(i)), [0, 1, 3, 7, 8]);
  assert.is(new Utf8Offsets('abc', 3).at(2), 2);
});

test.run();
