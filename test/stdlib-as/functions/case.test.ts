import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

/** Letters added to Unicode after AssemblyScript's case tables (13.0): our mapping leaves them unchanged. */
const NEWER_LETTERS = [
  [0x19b, 0x19b],
  [0x264, 0x264],
  [0x1c89, 0x1c8a],
  [0x2c2f, 0x2c2f],
  [0x2c5f, 0x2c5f],
  [0xa7c0, 0xa7c1],
  [0xa7cb, 0xa7dc],
  [0x10570, 0x105bc],
  [0x10d50, 0x10d65],
  [0x10d70, 0x10d85],
  [0x16ea0, 0x16ed3],
];
const newer = (c: number) => NEWER_LETTERS.some(([from, to]) => c >= from! && c <= to!);

/** Every code point (but Σ, whose lower case depends on its neighbours) mapped alone, as JS maps it. */
function compareWithJs(fn: string, js: (text: string) => string): string[] {
  const differences: string[] = [];
  for (let block = 0; block < 0x110000; block += 0x1000) {
    const chars: string[] = [];
    for (let c = block; c < block + 0x1000; c++) {
      if ((c < 0xd800 || c >= 0xe000) && c !== 0x20 && c !== 0x3a3 && !newer(c)) chars.push(String.fromCodePoint(c));
    }
    const result = stdlib.call(fn, chars.join(' '));
    stdlib.exports.reset!();
    const mapped = ('value' in result ? (result.value as string) : '').split(' ');
    chars.forEach((c, i) => {
      if (mapped[i] !== js(c)) differences.push(`U+${c.codePointAt(0)!.toString(16)}`);
    });
  }
  return differences;
}

test('upcase maps every code point as Rust (and JS) to_uppercase, special casings included', () => {
  assert.equal(
    compareWithJs('fn_upcase', (c) => c.toUpperCase()),
    [],
  );
});

test('downcase maps every code point as Rust (and JS) to_lowercase', () => {
  assert.equal(
    compareWithJs('fn_downcase', (c) => c.toLowerCase()),
    [],
  );
});

test('final sigma: ς at the end of a word, after a cased letter, skipping case-ignorable characters', () => {
  for (const text of ['ΣΑΣ', 'ΑΣ ΣΑ', 'Σ', "ΑΣ'", "Α'Σ", 'ΑΣΑ', 'AΣ1', 'ΑΣ.Σ', '1Σ', 'ΑΣ\u0301', 'ΑΣ\u0301Α']) {
    assert.equal(stdlib.call('fn_downcase', text), { value: text.toLowerCase() }, text);
  }
});
test.run();
