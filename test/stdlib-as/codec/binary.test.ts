import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Regex, Timestamp } from '../../../abi/values.js';
import { VECTORS, bytesOf, hexOf } from '../../support/vectors.js';

const stdlib = new Stdlib();

test('values survive TS encode → AS decode → AS encode → TS decode', () => {
  const values = [
    null,
    true,
    false,
    0n,
    -1n,
    9223372036854775807n,
    -9223372036854775808n,
    1.5,
    -0.25,
    1e300,
    '',
    'héllo',
    new Uint8Array([0xff, 0x00]),
    new Timestamp(1_600_000_000_123_456_789n),
    new Timestamp(-1n),
    [],
    [1n, 'a', [null]],
    {},
    { b: 1n, a: { c: [true] } },
    new Regex('^a+(?P<x>b)$'),
  ];
  for (const v of values) assert.equal(stdlib.get(stdlib.put(v)), v);
});

test('each golden vector decodes and re-encodes byte for byte', () => {
  const x = stdlib.exports;
  for (const v of VECTORS) {
    const value = x.value_decode!(stdlib.write(bytesOf(v.hex)));
    assert.is(hexOf(stdlib.read(x.value_encode!(value), x.value_encoded_size!(value))), v.hex, v.name);
  }
});

test('object keys come back sorted byte-wise', () => {
  const back = stdlib.get(stdlib.put({ b: 1n, a: 2n, é: 3n, Z: 4n })) as Record<string, unknown>;
  assert.equal(Object.keys(back), ['Z', 'a', 'b', 'é']);
});

test.run();
