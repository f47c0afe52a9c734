import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decode, encode, keyText } from '../../abi/codec.js';
import { Timestamp } from '../../abi/values.js';
import { VECTORS, bytesOf, encodableFromJs, hexOf, valueOf } from '../support/vectors.js';

test('the vectors cover every tag', () => {
  const tags = new Set(VECTORS.map((v) => v.hex.slice(0, 2)));
  assert.equal([...tags].sort(), ['00', '01', '02', '03', '04', '05', '06', '07', '08', '09']);
});

test('decoding each vector gives its value', () => {
  for (const v of VECTORS) assert.equal(decode(bytesOf(v.hex)), valueOf(v.value), v.name);
});

test('encoding each value gives its vector, byte for byte', () => {
  for (const v of VECTORS) {
    if (encodableFromJs(v.value)) assert.is(hexOf(encode(valueOf(v.value))), v.hex, v.name);
  }
});

test('decode then encode reproduces the vector (negative zero, key order, non-UTF-8 bytes)', () => {
  for (const v of VECTORS) {
    if (encodableFromJs(v.value)) assert.is(hexOf(encode(decode(bytesOf(v.hex)))), v.hex, v.name);
  }
});

test('decoded objects list their keys in byte order', () => {
  const sorted = VECTORS.find((v) => v.name === 'object keys sorted byte-wise')!;
  assert.equal(Object.keys(decode(bytesOf(sorted.hex)) as object), ['', 'Z', 'a', 'aa', 'b', 'é']);
});

test('a __proto__ key stays a plain entry', () => {
  const proto = VECTORS.find((v) => v.name === 'object key __proto__')!;
  const decoded = decode(bytesOf(proto.hex)) as Record<string, unknown>;
  assert.equal(Object.keys(decoded), ['__proto__', 'constructor']);
  assert.is(Object.getPrototypeOf(decoded), Object.prototype);
});

test('large values encode across buffer growth', () => {
  const big = { s: 'x'.repeat(1000), items: Array.from({ length: 300 }, (_, i) => BigInt(i)) };
  assert.equal(decode(encode(big)), big);
});

/** The keys of an encoded object whose values are all integers, in encoded order. */
function encodedKeys(bytes: Uint8Array): Buffer[] {
  const view = Buffer.from(bytes);
  const keys: Buffer[] = [];
  for (let at = 9, n = 0; n < view.readUInt32LE(1); n++) {
    const length = view.readUInt32LE(at);
    keys.push(view.subarray(at + 4, at + 4 + length));
    at += 4 + length + 9;
  }
  return keys;
}

test('strings of any length and script encode as UTF-8; object keys sort by their UTF-8 bytes', () => {
  const strings = [
    '',
    'a',
    'é',
    'x'.repeat(64),
    'x'.repeat(65),
    `${'x'.repeat(63)}é`,
    '😀',
    '\uE000',
    '\uFFFF',
    '9',
    '10',
  ];
  for (const s of strings) assert.equal(decode(encode(s)), s, s);
  // A lone surrogate has no UTF-8: it becomes U+FFFD, as Buffer and TextEncoder write it.
  assert.equal(decode(encode('a\uD800')), 'a\uFFFD');
  const object = Object.fromEntries(strings.map((s, i) => [s, BigInt(i)]));
  assert.equal(encodedKeys(encode(object)), strings.map((s) => Buffer.from(s)).sort(Buffer.compare));
  assert.equal(
    encodedKeys(encode({ b: 1n, a: 2n, '10': 3n, '9': 4n })),
    ['10', '9', 'a', 'b'].map((s) => Buffer.from(s)),
  );
});

test('short strings and timestamps read again are the values written, whatever was read between', () => {
  // More distinct short strings than the reader keeps: slots are shared and replaced.
  const strings = Array.from({ length: 5000 }, (_, i) => `k${(i * 7919) % 100_003}`.slice(0, 1 + (i % 12)));
  strings.push('é', 'ab\u0000c', 'x'.repeat(12), 'x'.repeat(13), '');
  const stamps = [1n, 2_000_000_001n, 1n, -5n, 1n].map((nanos) => new Timestamp(nanos));
  const value = { strings: [...strings, ...strings], stamps };
  assert.equal(decode(encode(value)), value);
});

test('text longer than the short-string path: a BOM stays, valid UTF-8 is a string, invalid UTF-8 stays bytes', () => {
  const long = 'x'.repeat(40);
  for (const text of [`\uFEFF${long}`, `${long}é😀`, `${long}\u0000\u007f`])
    assert.is(decode(encode(Buffer.from(text))), text, JSON.stringify(text));
  for (const bytes of [
    [...Buffer.from(long), 0xff],
    [...Buffer.from(long), 0xc0, 0x80], // overlong NUL
    [...Buffer.from(long), 0xed, 0xa0, 0x80], // an encoded surrogate
    [...Buffer.from(long), 0xe2, 0x82], // cut short
  ])
    assert.equal(decode(encode(new Uint8Array(bytes))), new Uint8Array(bytes));
});

test('integers JS numbers hold exactly encode as i64, negative and beyond 32 bits alike', () => {
  for (const n of [0, 1, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, -(2 ** 32), 2 ** 53 - 1, -(2 ** 53 - 1), 1234567890123])
    assert.equal(decode(encode(n)), BigInt(n), String(n));
  assert.equal(decode(encode(-0)), -0, 'negative zero stays a float');
});

test('objects of the same first key but other keys, or the same keys in another order, each sort their own', () => {
  const values = [
    { a: 1n, c: 2n },
    { a: 1n, b: 2n, c: 3n },
    { c: 1n, a: 2n },
    { a: 1n, c: 2n },
    { a: undefined, b: 1n },
    { a: 1n, b: undefined, c: 3n },
  ];
  const keys = values.map((value) => Object.keys(decode(encode(value)) as object));
  assert.equal(keys, [['a', 'c'], ['a', 'b', 'c'], ['a', 'c'], ['a', 'c'], ['b'], ['a', 'c']]);
  assert.equal(decode(encode({ c: 1n, a: 2n })), { a: 2n, c: 1n });
});

test('NaN is refused', () => {
  assert.throws(() => encode(NaN), /NaN/);
});

test.run();

test('keyText: ASCII keys, short or long, the same string again; UTF-8 decoded; invalid bytes replaced', () => {
  const utf8 = (text: string) => new Uint8Array(Buffer.from(text));
  assert.is(keyText(utf8('host')), 'host');
  assert.is(keyText(utf8('host')), keyText(utf8('host')));
  assert.is(keyText(utf8('a_rather_long_field_name')), 'a_rather_long_field_name');
  assert.is(keyText(utf8('clé')), 'clé');
  assert.is(keyText(new Uint8Array([0x61, 0xff, 0x62])), 'a\uFFFDb');
  const within = utf8('xxkeyxx').subarray(2, 5);
  assert.is(keyText(within), 'key');
  assert.equal(decode(encode({ clé: 1n, é: 2n })), { clé: 1n, é: 2n });
});
