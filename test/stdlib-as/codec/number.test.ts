import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('integers as Rust reads them', () => {
  const cases: [string, bigint | null][] = [
    ['42', 42n],
    ['-42', -42n],
    ['+7', 7n],
    ['007', 7n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', null],
    ['-9223372036854775809', null],
    ['', null],
    ['-', null],
    ['1a', null],
    [' 1', null],
    ['1.0', null],
  ];
  for (const [text, n] of cases) {
    assert.equal(stdlib.call('parse_int_text', text), n === null ? { error: 'invalid integer' } : { value: n }, text);
  }
});

test('floats as Rust reads them, correctly rounded', () => {
  const cases: [string, number | null][] = [
    ['42', 42],
    ['-42.5', -42.5],
    ['+7', 7],
    ['.5', 0.5],
    ['5.', 5],
    ['1e5', 1e5],
    ['1E-5', 1e-5],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
    ['1e400', Infinity],
    ['4.9e-324', 5e-324],
    ['1e-400', 0],
    ['123456789012345678901234567890', 1.2345678901234568e29],
    ['0.30000000000000004', 0.30000000000000004],
    ['2.2250738585072011e-308', 2.225073858507201e-308],
    ['9007199254740993', 9007199254740992],
    ['nan', null],
    ['.', null],
    ['e5', null],
    ['1e', null],
    ['1e+', null],
    ['0x10', null],
    ['', null],
  ];
  for (const [text, f] of cases) {
    const result = stdlib.call('parse_float_text', text);
    if (f === null) assert.equal(result, { error: 'invalid float' }, text);
    else assert.ok('value' in result && Object.is(Number(result.value), f), text);
  }
});

test('random decimals read exactly as JS reads them', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  for (let i = 0; i < 20000; i++) {
    const text = `${digits(1 + Math.floor(random() * 19))}.${digits(Math.floor(random() * 4))}e${Math.floor(random() * 640) - 330}`;
    const result = stdlib.call('parse_float_text', text);
    assert.ok('value' in result && Object.is(Number(result.value), Number(text)), text);
    if (i % 1000 === 0) stdlib.exports.reset!();
  }
});

test.run();
