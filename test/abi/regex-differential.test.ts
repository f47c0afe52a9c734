// Differential test of the regex engine (abi/regex.ts) over generated patterns and inputs, ASCII and not:
// its fast path (V8's RegExp on patterns proven linear) against RE2 alone, and both against the RegExp
// translation used before, corrected where the new engine gives Rust's answer (test/support/
// regexp-translation.ts; the corrections are the documented differences, each shown below). Inputs are
// small so that the backtracking oracle always finishes.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RustRegex } from '../../abi/regex.js';
import { rustMatches } from '../../abi/rust-regex.js';
import { translatedMatches, translatedRegExp } from '../support/regexp-translation.js';
import { generator } from '../support/regex-generator.js';

const newMatches = (re: RustRegex, text: string) =>
  [...rustMatches(re, text)].map((m) => [
    m.start,
    m.end,
    ...Array.from({ length: re.groupCount + 1 }, (_, i) => m.groups[i]),
  ]);

test('generated patterns: fast path, RE2 and the corrected RegExp translation agree', () => {
  const gen = generator(20261126);
  let fast = 0;
  const PATTERNS = 600;
  for (let p = 0; p < PATTERNS; p++) {
    const pattern = gen.pattern();
    const auto = new RustRegex(pattern);
    const automata = new RustRegex(pattern, false);
    const oracle = translatedRegExp(pattern, true);
    if (auto.onBacktracker) fast++;
    for (let i = 0; i < 15; i++) {
      const text = gen.input();
      const onRe2 = newMatches(automata, text);
      const expected = translatedMatches(oracle, text);
      const where = `${JSON.stringify(pattern)} on ${JSON.stringify(text)}`;
      assert.equal(onRe2, expected, `RE2: ${where}`);
      assert.equal(newMatches(auto, text), onRe2, `fast path: ${where}`);
      assert.is(auto.test(text), expected.length > 0, `test: ${where}`);
    }
  }
  // The generator must exercise both engines.
  assert.ok(fast > PATTERNS / 20 && fast < PATTERNS / 2, `${fast} of ${PATTERNS} patterns on the fast path`);
});

test('only anchored one-pass patterns run on the backtracker', () => {
  const fast = (pattern: string) => new RustRegex(pattern).onBacktracker;
  assert.ok(fast('^(?P<client>\\S+) \\S+ \\[(?P<time>[^\\]]+)\\] "(?P<method>\\S+) [^"]*" (?P<status>\\d+)$'));
  assert.ok(fast('\\A[a-z]+=\\d+\\z'));
  assert.not.ok(
    fast('^[a-z]+=\\d+'),
    'RE2 takes a one-pass pattern with alternatives only when anchored at the end too',
  );
  assert.not.ok(fast('^(a+)+$'), 'ambiguous nesting');
  assert.not.ok(fast('^\\S+\\s*\\S+$'), '\\s* can be empty between two \\S+');
  assert.not.ok(fast('^"\\S+"$'), '\\S takes the closing quote too');
  assert.not.ok(fast('\\d+x'), 'unanchored: a backtracker retries at every position');
  assert.not.ok(fast('(?m)^a+$'), 'line anchors and flags stay on RE2');
  assert.not.ok(fast('^\\p{L}+$'), 'Unicode classes stay on RE2');
});

/** [pattern, input, the previous translation's answer, the new (Rust's) answer] for `test`. */
const DIFFERENCES: [string, string, boolean, boolean][] = [
  ['^.$', '\r', false, true], // `.` is anything but \n in Rust; JS also excluded \r, U+2028 and U+2029
  ['^\\s$', '\u0085', false, true], // \s is White_Space: NEL is in,
  ['^\\s$', '\ufeff', true, false], // the BOM is out
  ['^.$', '😀', false, true], // one character, not two UTF-16 units (the translation had no `u` flag)
  ['(?i)^k$', '\u212a', false, true], // Unicode simple case folding: KELVIN SIGN is a k
  ['(?m)^b', 'a\rb', true, false], // lines end at \n only
  ['(?m)a$', 'a\u2028', true, false],
];

test("documented differences from the previous translation, where the new engine gives Rust's answer", () => {
  for (const [pattern, input, before, after] of DIFFERENCES) {
    const where = `${pattern} on ${JSON.stringify(input)}`;
    assert.is(translatedRegExp(pattern, false).test(input), before, `before: ${where}`);
    assert.is(new RustRegex(pattern).test(input), after, `now: ${where}`);
  }
});

test('empty iterations: JS refuses an iteration that matches empty, Rust and RE2 take it', () => {
  const [pattern, text] = ['(?:[ab]?|\\W){1,3}[^a ]\\w', '\u00a0xbb'];
  const before = translatedRegExp(pattern, true).exec(text)!;
  assert.equal([before.index, before[0]], [0, '\u00a0xb']);
  const now = new RustRegex(pattern).exec(text)!;
  assert.equal([now.start, now.groups[0]], [0, '\u00a0x']);
  assert.equal(translatedRegExp('(a*)*', true).exec('b')![1], undefined);
  assert.is(new RustRegex('(a*)*').exec('b')!.groups[1], '');
});

test('patterns the translation rejected or misread and Rust accepts, and the reverse', () => {
  assert.ok(new RustRegex('a(?i)b').test('aB'), 'inline flags anywhere');
  assert.ok(new RustRegex('(?U)a+').exec('aaa')?.end === 1, 'swap-greed flag');
  assert.ok(new RustRegex('^[[:alpha:]]+$').test('abc'), 'POSIX classes');
  assert.throws(() => new RustRegex('(a)\\1'), /invalid escape sequence/, 'no backreferences');
  assert.throws(() => new RustRegex('a(?=b)'), /look-around/, 'no look-around');
  assert.throws(() => new RustRegex('[a[bc]]'), /nested character classes are not supported/);
  assert.throws(() => new RustRegex('[a-z&&[^aeiou]]'), /&& is not supported/);
});

test.run();
