// The wasm regex engine (abi/regex-program.ts compiled, stdlib-as/regex-vm.ts running) against `RustRegex`
// on RE2 alone: generated patterns and inputs, ASCII and not, short (the bounded backtracker) and long (the
// Pike VM: 4,000 characters exceed the backtracker's budget from 9 instructions on); identical match, span
// and every group. Then linear time on the patterns that stall a backtracking engine, and look-around.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RustRegex } from '../../abi/regex.js';
import { LOOK_AROUND_MARKER, regexProgram, type LookAround } from '../../abi/regex-program.js';
import { Regex } from '../../abi/values.js';
import { Stdlib } from '../support/stdlib.js';
import { generator } from '../support/regex-generator.js';

const stdlib = new Stdlib();
const wasm = stdlib.exports;

type Found = null | { start: number; end: number; groups: (string | undefined)[] };

/** The wasm engine's first match at or after byte `from` (a code point boundary), offsets in bytes. */
function wasmSearch(re: number, text: number, bytes: Buffer, from: number, groupCount: number): Found {
  const slots = wasm.regex_search!(re, text, from);
  if (slots === 0) return null;
  const view = new Int32Array(wasm.memory.buffer, slots, (groupCount + 1) * 2);
  const groups: (string | undefined)[] = [];
  for (let g = 0; g <= groupCount; g++) {
    groups.push(view[2 * g]! < 0 ? undefined : bytes.subarray(view[2 * g]!, view[2 * g + 1]!).toString('utf8'));
  }
  return { start: view[0]!, end: view[1]!, groups };
}

/** RE2's first match at or after UTF-16 index `from`, offsets in bytes. */
function re2Search(re: RustRegex, text: string, from: number): Found {
  const m = re.exec(text, from);
  if (!m) return null;
  const bytes = (index: number) => Buffer.byteLength(text.slice(0, index));
  return { start: bytes(m.start), end: bytes(m.end), groups: Array.from(m.groups) };
}

/** Compares both engines at every code point boundary of `text`; returns how many searches matched. */
function compare(pattern: string, re2: RustRegex, re: number, text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  const textValue = stdlib.put(text);
  let matched = 0;
  for (let from = 0; from <= text.length; from++) {
    if (from > 0 && from < text.length && text.charCodeAt(from) >= 0xdc00 && text.charCodeAt(from) < 0xe000) continue;
    const expected = re2Search(re2, text, from);
    const actual = wasmSearch(re, textValue, bytes, Buffer.byteLength(text.slice(0, from)), re2.groupCount);
    assert.equal(actual, expected, `${JSON.stringify(pattern)} on ${JSON.stringify(text)} from ${from}`);
    if (actual) matched++;
  }
  return matched;
}

test('generated patterns on short inputs (backtracker): the same matches as RE2', () => {
  for (const rust of [false, true]) {
    const gen = generator(rust ? 7 : 20261126, rust);
    let matched = 0;
    for (let p = 0; p < 500; p++) {
      const pattern = gen.pattern();
      const re2 = new RustRegex(pattern, false);
      const re = stdlib.put(new Regex(pattern));
      for (let i = 0; i < 12; i++) matched += compare(pattern, re2, re, gen.input());
      wasm.reset!();
    }
    assert.ok(matched > 5000, `${matched} searches matched`);
  }
});

test('generated patterns on long inputs (Pike VM): the same matches as RE2', () => {
  const gen = generator(99, true);
  for (let p = 0; p < 150; p++) {
    const pattern = gen.pattern();
    const re2 = new RustRegex(pattern, false);
    const re = stdlib.put(new Regex(pattern));
    for (let i = 0; i < 3; i++) {
      let text = gen.input();
      while (text.length < 4000) text += gen.input() + 'x';
      // Every start offset of a long text costs RE2 too much: a few, and the whole iteration via `from` 0.
      const bytes = Buffer.from(text, 'utf8');
      const textValue = stdlib.put(text);
      for (const from of [0, 1, 7, 2000]) {
        const at = Buffer.byteLength(text.slice(0, from));
        const boundary = !(text.charCodeAt(from) >= 0xdc00 && text.charCodeAt(from) < 0xe000);
        if (!boundary) continue;
        assert.equal(
          wasmSearch(re, textValue, bytes, at, re2.groupCount),
          re2Search(re2, text, from),
          `${JSON.stringify(pattern)} from ${from}`,
        );
      }
    }
    wasm.reset!();
  }
});

// Loops the backtracker takes at once (the program's loop records): a greedy loop whose exit cannot start
// where it goes on runs to its end, a lazy one moves past where its exit cannot start.
test('loops taken at once: the same matches as RE2, and the loops that qualify have records', () => {
  const loopTable = (pattern: string) => new DataView(regexProgram(pattern).buffer).getUint32(60, true);
  const cases: Array<[pattern: string, recorded: boolean]> = [
    ['"([^"]*)"', true],
    ['"(?s:(.*?))"\\s', true],
    ['(\\S+)\\s+(\\d+)', true],
    ['x+y', true],
    ['(?i)a[^b]*?b', true],
    // The exit may start inside the loop's run, or match empty: no record, the general way.
    ['a*a', false],
    ['(?s:.*)x', false],
    ['a[^b]*$', false],
    ['a*?\\b', false],
  ];
  const texts = [
    'say "hi" then "bye" ',
    '"""" x',
    'aaa aab abb',
    'xxxy xy y',
    'A..b ab',
    'a\u00e9\u00e9b "\u00e9"\t1',
    '',
  ];
  for (const [pattern, recorded] of cases) {
    assert.is(loopTable(pattern) !== 0, recorded, pattern);
    const re2 = new RustRegex(pattern, false);
    const re = stdlib.put(new Regex(pattern));
    for (const text of texts) compare(pattern, re2, re, text);
    wasm.reset!();
  }
});

test('linear time: patterns that stall a backtracking engine finish on long inputs', () => {
  const cases: [string, string, boolean][] = [
    ['^(a+)+$', 'a'.repeat(30) + '!', false],
    ['^(a+)+$', 'a'.repeat(100_000) + '!', false],
    ['(a|aa)*b', 'a'.repeat(50_000), false],
    ['(x+x+)+y', 'x'.repeat(20_000), false],
    ['(x+x+)+y', 'x'.repeat(5_000) + 'y', true],
    ['^(\\w+\\s?)*$', 'word '.repeat(10_000) + '!', false],
  ];
  for (const [pattern, text, matches] of cases) {
    const re = stdlib.put(new Regex(pattern));
    const value = stdlib.put(text);
    assert.is(wasm.regex_search!(re, value, 0) !== 0, matches, pattern);
    wasm.reset!();
  }
});

test('look-around markers: fixed sequences of classes before or after the position', () => {
  const digit = [[0x30, 0x39]] as const;
  const looks: LookAround[] = [
    { behind: true, negated: true, sequence: [digit] }, // (?<![0-9])
    { behind: false, negated: true, sequence: [digit] }, // (?![0-9])
    { behind: true, negated: false, sequence: [[[0x7b, 0x7b]], [[0x20, 0x20]]] }, // (?<={ )
  ];
  const marker = (i: number) => `\\x{${(LOOK_AROUND_MARKER + i).toString(16)}}`;
  const search = (pattern: string, text: string) => {
    const program = regexProgram(pattern, looks);
    const re = stdlib.put(new Regex(pattern, program));
    const bytes = Buffer.from(text);
    const found = wasmSearch(re, stdlib.put(text), bytes, 0, 0);
    return found && text.slice(found.start, found.end);
  };
  // A number not inside a longer one (grok's BASE10NUM).
  assert.is(search(`${marker(0)}[0-9]+${marker(1)}`, 'ab12c345'), '12');
  assert.is(search(`${marker(0)}[0-9]{2}${marker(1)}`, '123 45'), '45');
  assert.is(search(`${marker(0)}[0-9]{2}${marker(1)}`, '123'), null);
  assert.is(search(`${marker(2)}[a-z]+`, 'ab { cd'), 'cd');
  assert.is(search(`${marker(2)}[a-z]+`, '{ '), null);
});

test.run();
