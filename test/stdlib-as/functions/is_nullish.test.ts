import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const isNullish = (value: unknown) => stdlib.call('fn_is_nullish', value);

test('null, "-", the empty string and whitespace-only strings are nullish', () => {
  for (const value of [
    null,
    '-',
    '',
    '\n  \n',
    ' \t\r\u000b\u000c',
    '\u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000',
  ]) {
    assert.equal(isNullish(value), { value: true }, JSON.stringify(value));
  }
});

test('other strings and kinds are not', () => {
  for (const value of ['a', ' - ', '--', '\u200b', 'x ', new Uint8Array([0x20, 0xc2]), [], {}, 0n, false]) {
    assert.equal(isNullish(value), { value: false }, String(value));
  }
});

test.run();
