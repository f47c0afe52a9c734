// The text codecs scan strings eight bytes at a time (stdlib-as/codec/scan.ts): every special byte must be
// found wherever it falls relative to those words, in strings of every length around the word size.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { display } from '../../../runtime/display.js';

const stdlib = new Stdlib();
const wasm = stdlib.exports;

/** `special` at offset `at` of a plain ASCII string of `length` characters. */
function withSpecial(length: number, at: number, special: string): string {
  const plain = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(2);
  return plain.slice(0, at) + special + plain.slice(at + 1, length);
}

/** Every (length, offset) pair for lengths around one, two and three words. */
function* placements(): Generator<[length: number, at: number]> {
  for (let length = 1; length <= 25; length++) for (let at = 0; at < length; at++) yield [length, at];
}

const SPECIALS = ['"', '\\', '\n', '\t', '\u0001', '\u001f', 'é', '€', '😀', '\u007f', ' ', '~'];

test('encode_json escapes and keeps every special character wherever it falls', () => {
  for (const special of SPECIALS) {
    for (const [length, at] of placements()) {
      const text = withSpecial(length, at, special);
      assert.equal(stdlib.call('fn_encode_json', text), { value: JSON.stringify(text) }, JSON.stringify(text));
    }
  }
});

test('encode_json replaces invalid UTF-8 wherever it falls', () => {
  for (const [length, at] of placements()) {
    const bytes = Buffer.from(withSpecial(length, at, '\u0000'));
    bytes[at] = 0xff;
    const expected = JSON.stringify(bytes.toString('utf8'));
    assert.equal(stdlib.call('fn_encode_json', new Uint8Array(bytes)), { value: expected }, `${length} ${at}`);
  }
});

test('parse_json reads escapes, control characters and UTF-8 wherever they fall', () => {
  for (const special of SPECIALS) {
    for (const [length, at] of placements()) {
      const text = withSpecial(length, at, special);
      const json = `{"${JSON.stringify(text).slice(1, -1)}":${JSON.stringify(text)}}`;
      assert.equal(stdlib.call('fn_parse_json', json), { value: { [text]: text } }, json);
      if (special < ' ' && special !== '\n') {
        // Unescaped, a control character is an error at its own column (a newline moves to line 2).
        const raw = `"${text}"`;
        assert.equal(stdlib.call('fn_parse_json', raw), {
          error: `unable to parse json: control character (\\u0000-\\u001F) found while parsing a string at line 1 column ${at + 2}`,
        }, raw);
      }
    }
  }
});

test('parse_json rejects invalid UTF-8 wherever it falls, unless lossy', () => {
  for (const [length, at] of placements()) {
    const bytes = Buffer.from(`"${withSpecial(length, at, 'x')}"`);
    bytes[at + 1] = 0xc3; // a lead byte without its continuation
    assert.equal(stdlib.call('fn_parse_json', new Uint8Array(bytes), undefined, false), {
      error: `unable to parse json: invalid unicode code point at line 1 column ${length + 2}`,
    }, `${length} ${at}`);
    assert.equal(stdlib.call('fn_parse_json', new Uint8Array(bytes)), {
      value: bytes.subarray(1, -1).toString('utf8'),
    }, `${length} ${at} lossy`);
  }
});

test('display escapes quotes, backslashes and newlines wherever they fall', () => {
  for (const special of SPECIALS) {
    for (const [length, at] of placements()) {
      const text = withSpecial(length, at, special);
      const shown = Buffer.from(stdlib.get(wasm.display_of!(stdlib.put(text))) as string).toString('utf8');
      assert.is(shown, display(text), JSON.stringify(text));
    }
  }
});

test.run();
