// Byte string order (compareBytes compares eight bytes at a time) and object keys found through it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../support/stdlib.js';

const stdlib = new Stdlib();
const wasm = stdlib.exports;

/** Byte-wise order of two strings, as JS sees it (the test strings are ASCII). */
const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Strings that differ at every offset of one and two words and past them, and prefixes of each other. */
function strings(): string[] {
  const base = 'abcdefghijklmnopqr';
  const out = [''];
  for (let length = 1; length <= base.length; length++) {
    out.push(base.slice(0, length));
    for (let at = 0; at < length; at++) {
      out.push(base.slice(0, at) + '\u0000' + base.slice(at + 1, length));
      out.push(base.slice(0, at) + '\u007f' + base.slice(at + 1, length));
    }
  }
  return out;
}

test('string comparison is byte-wise at every offset, and a prefix sorts first', () => {
  const all = strings();
  for (const a of all) {
    for (const b of all) {
      const lt = stdlib.call('op_lt', a, b);
      const eq = stdlib.call('op_eq', a, b);
      assert.equal(
        [lt, eq],
        [{ value: order(a, b) < 0 }, { value: a === b }],
        `${JSON.stringify(a)} ${JSON.stringify(b)}`,
      );
    }
  }
});

test('objects keep keys sorted and find them whatever order they arrive in', () => {
  const keys = strings();
  const shuffled = keys
    .map((key, i) => [key, (i * 7919) % keys.length] as const)
    .sort((x, y) => x[1] - y[1])
    .map(([key]) => key);
  for (const arrival of [keys, [...keys].reverse(), shuffled]) {
    const o = wasm.new_object!(0);
    for (const key of arrival) {
      const bytes = Buffer.from(key);
      const ptr = wasm.alloc!(bytes.length);
      new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
      wasm.object_set!(o, ptr, bytes.length, stdlib.put(key));
    }
    const value = stdlib.get(o) as Record<string, unknown>;
    assert.equal(Object.keys(value).length, new Set(keys).size);
    for (const key of keys) assert.is(value[key], key);
    const stored: string[] = [];
    for (let i = 0; i < wasm.object_len!(o); i++) {
      stored.push(Buffer.from(wasm.memory.buffer, wasm.object_key_ptr!(o, i), wasm.object_key_len!(o, i)).toString());
    }
    assert.equal(stored, [...new Set(keys)].sort(order));
  }
});

test('parsed JSON objects keep keys sorted whatever order they arrive in, the last duplicate winning', () => {
  const parse = (text: string) => stdlib.call('fn_parse_json', text);
  assert.equal(parse('{"a":1,"b":2,"c":3}'), { value: { a: 1n, b: 2n, c: 3n } });
  assert.equal(parse('{"c":1,"b":2,"a":3,"bb":4}'), { value: { a: 3n, b: 2n, bb: 4n, c: 1n } });
  assert.equal(parse('{"a":1,"b":2,"b":3,"a":4}'), { value: { a: 4n, b: 3n } });
  const keys = strings().filter((key) => !key.includes('\u0000'));
  const text = `{${[...keys]
    .reverse()
    .map((key) => `${JSON.stringify(key)}:1`)
    .join(',')}}`;
  const parsed = parse(text) as { value: Record<string, unknown> };
  assert.equal(Object.keys(parsed.value), [...new Set(keys)].sort(order));
});

test.run();
