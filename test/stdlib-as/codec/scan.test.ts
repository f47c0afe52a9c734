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
      // After an escape the rest of the string is decoded into a copy, by the same runs.
      const escaped = `"\\t${JSON.stringify(text).slice(1, -1)}"`;
      assert.equal(stdlib.call('fn_parse_json', escaped), { value: `\t${text}` }, escaped);
      if (special < ' ' && special !== '\n') {
        // Unescaped, a control character is an error at its own column (a newline moves to line 2).
        const raw = `"${text}"`;
        assert.equal(
          stdlib.call('fn_parse_json', raw),
          {
            error: `unable to parse json: control character (\\u0000-\\u001F) found while parsing a string at line 1 column ${at + 2}`,
          },
          raw,
        );
        assert.equal(
          stdlib.call('fn_parse_json', `"\\t${text}"`),
          {
            error: `unable to parse json: control character (\\u0000-\\u001F) found while parsing a string at line 1 column ${at + 4}`,
          },
          raw,
        );
      }
    }
  }
});

test('parse_json rejects invalid UTF-8 wherever it falls, unless lossy', () => {
  for (const [length, at] of placements()) {
    const bytes = Buffer.from(`"${withSpecial(length, at, 'x')}"`);
    bytes[at + 1] = 0xc3; // a lead byte without its continuation
    assert.equal(
      stdlib.call('fn_parse_json', new Uint8Array(bytes), undefined, false),
      {
        error: `unable to parse json: invalid unicode code point at line 1 column ${length + 2}`,
      },
      `${length} ${at}`,
    );
    assert.equal(
      stdlib.call('fn_parse_json', new Uint8Array(bytes)),
      {
        value: bytes.subarray(1, -1).toString('utf8'),
      },
      `${length} ${at} lossy`,
    );
    const escaped = Buffer.concat([Buffer.from('"\\t'), bytes.subarray(1)]);
    assert.equal(
      stdlib.call('fn_parse_json', new Uint8Array(escaped), undefined, false),
      {
        error: `unable to parse json: invalid unicode code point at line 1 column ${length + 4}`,
      },
      `${length} ${at} escaped`,
    );
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

test('strings that end where the arena ends are scanned within memory', () => {
  const cases: [text: string, expected: unknown][] = [
    ['"abc"', { value: 'abc' }],
    ['"abcdefghij"', { value: 'abcdefghij' }],
    ['"abc\\n"', { value: 'abc\n' }],
    ['"abc', { error: 'unable to parse json: EOF while parsing a string at line 1 column 4' }],
    [
      '"ab\u0001"',
      {
        error:
          'unable to parse json: control character (\\u0000-\\u001F) found while parsing a string at line 1 column 4',
      },
    ],
  ];
  for (const [text, expected] of cases) {
    const v = stdlib.put('placeholder');
    // Fill the arena up to its end without growing memory, and put the JSON text in its last bytes.
    const size = wasm.memory.buffer.byteLength;
    const rest = size - wasm.alloc!(0);
    const ptr = wasm.alloc!(rest - 8) + rest - 8 - text.length;
    assert.is(wasm.memory.buffer.byteLength, size, 'the arena keeps its slack without growing');
    Buffer.from(wasm.memory.buffer).write(text, ptr, 'latin1');
    const record = new DataView(wasm.memory.buffer);
    record.setUint32(v + 4, text.length, true);
    record.setUint32(v + 8, ptr, true);
    const result = wasm.fn_parse_json!(v, 0, 0);
    assert.equal(result === 0 ? { error: stdlib.error() } : { value: stdlib.get(result) }, expected, text);
  }
});

test('the arena leaves eight readable bytes past everything it hands out', () => {
  const size = wasm.memory.buffer.byteLength;
  wasm.alloc!(size - wasm.alloc!(0) - 7);
  assert.ok(wasm.memory.buffer.byteLength > size);
});

test.run();
