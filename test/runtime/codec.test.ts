import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decode, encode } from '../../runtime/codec.js';
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

test('NaN is refused', () => {
  assert.throws(() => encode(NaN), /NaN/);
});

test.run();
