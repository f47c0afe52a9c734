import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Regex, Timestamp } from '../../../abi/values.js';

const stdlib = new Stdlib();
const wasm = stdlib.exports;
const encode = (value: unknown, pretty?: boolean) => stdlib.call('fn_encode_json', value, pretty);

/** The JSON of a float built in wasm (the test harness turns integral JS numbers into integers). */
function encodeFloat(x: number): string {
  const v = wasm.fn_encode_json!(wasm.new_float!(x), 0);
  return stdlib.get(v) as string;
}

test('upstream examples', () => {
  assert.equal(encode({ field: 'value', another: [1n, 2n, 3n] }), { value: '{"another":[1,2,3],"field":"value"}' });
  assert.equal(encode({ field: 'value', another: [1n, 2n, 3n] }, true), {
    value: '{\n  "another": [\n    1,\n    2,\n    3\n  ],\n  "field": "value"\n}',
  });
});

test('scalars, timestamps and regexes', () => {
  const value = [new Timestamp(1602345600120000000n), new Regex('^a"b$'), null, true, false, -5n, {}, [], { a: {} }];
  assert.equal(encode(value), { value: '["2020-10-10T16:00:00.120Z","^a\\"b$",null,true,false,-5,{},[],{"a":{}}]' });
});

test('strings use serde_json escapes; invalid UTF-8 becomes U+FFFD', () => {
  assert.equal(encode({ 'k"\u0001': 'a"\\\n\r\t\u0001\b\f\u001f\u007fé/<>&\'' }), {
    value: '{"k\\"\\u0001":"a\\"\\\\\\n\\r\\t\\u0001\\b\\f\\u001f\u007fé/<>&\'"}',
  });
  assert.equal(encode(new Uint8Array([0x61, 0xa1, 0xff, 0x22])), { value: '"a\ufffd\ufffd\\""' });
});

test('floats as ryu prints them', () => {
  const cases: [number, string][] = [
    [1, '1.0'],
    [-0, '-0.0'],
    [0, '0.0'],
    [1e21, '1e21'],
    [1.5e-7, '1.5e-7'],
    [1e-7, '1e-7'],
    [1e300, '1e300'],
    [123456789.123, '123456789.123'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e16'],
    [1.5e16, '1.5e16'],
    [0.001, '0.001'],
    [0.0001, '0.0001'],
    [1e-5, '0.00001'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e308'],
    [9223372036854775808, '9.223372036854776e18'],
    [1.23e-18, '1.23e-18'],
    [Infinity, 'null'],
  ];
  for (const [x, text] of cases) assert.is(encodeFloat(x), text);
});

test('pretty printing nests with two spaces; empty containers stay closed', () => {
  assert.equal(encode({ a: [1n, { b: [] }, {}], c: { d: null } }, true), {
    value: '{\n  "a": [\n    1,\n    {\n      "b": []\n    },\n    {}\n  ],\n  "c": {\n    "d": null\n  }\n}',
  });
  assert.equal(encode('x', true), { value: '"x"' });
});

test('parse_json reads back what encode_json writes', () => {
  const value = { a: [1n, 'x\n"y"', null, { b: true }], é: -2.5, z: '\u0001' };
  const text = (encode(value) as { value: string }).value;
  assert.equal(stdlib.call('fn_parse_json', text), { value });
});

test('pretty must be a boolean', () => {
  assert.equal(encode(1n, 'yes' as unknown as boolean), { error: 'expected boolean, got string' });
});

test.run();
