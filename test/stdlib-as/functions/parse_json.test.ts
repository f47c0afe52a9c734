import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const parse = (text: string | Uint8Array, maxDepth?: bigint, lossy?: boolean) =>
  stdlib.call('fn_parse_json', text, maxDepth, lossy);
/** Floats that are integral would come back through the codec as floats; compare them by value and kind. */
const ok = (text: string, value: unknown) => assert.equal(parse(text), { value }, text);
const err = (text: string | Uint8Array, message: string, maxDepth?: bigint, lossy?: boolean) =>
  assert.equal(parse(text, maxDepth, lossy), { error: message }, String(text));

test('upstream examples', () => {
  ok('{"key": "val"}', { key: 'val' });
  ok('[true, 0]', [true, 0n]);
  ok('"hello"', 'hello');
  ok('42', 42n);
  ok('42.13', 42.13);
  ok('false', false);
  err('{ INVALID }', 'unable to parse json: key must be a string at line 1 column 3');
  assert.equal(parse('{"first_level":{"second_level":"finish"}}', 1n), {
    value: { first_level: '{"second_level":"finish"}' },
  });
});

test('numbers: integers that fit i64 stay integers, everything else is a float', () => {
  ok('-9223372036854775808', -9223372036854775808n);
  ok('9223372036854775807', 9223372036854775807n);
  ok('9223372036854775808', 9223372036854775808);
  ok('-9223372036854775809', -9223372036854775809);
  ok('18446744073709551616', 18446744073709551616);
  ok(' [1e2, 1E-2, 0.5e+1, 123456789.123456789e-5, 1e-400] ', [100, 0.01, 5, 1234.56789123456789, 0]);
  assert.ok(Object.is((parse('-0') as { value: number }).value, -0));
  ok(
    '[12.345678901234567, 2.2250738585072014e-308, 1.7976931348623157e308, 4.9e-324]',
    [12.345678901234567, 2.2250738585072014e-308, 1.7976931348623157e308, 5e-324],
  );
  ok('0.1000000000000000055511151231257827021181583404541015625', 0.1);
});

test('strings: escapes, surrogate pairs, raw UTF-8; objects sorted, last duplicate wins', () => {
  ok('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00 é"', '"\\/\b\f\n\r\té😀 é');
  ok('{"b":1,"a":2,"b":3,"é":{},"A":[]}', { A: [], a: 2n, b: 3n, é: {} });
  ok('{"a\\"b":[1.5,-2,"x\\ty"],"n":null}', { 'a"b': [1.5, -2n, 'x\ty'], n: null });
  ok(`"${'x'.repeat(1000)}\\n"`, `${'x'.repeat(1000)}\n`);
});

test('strings with escapes: each decoded into its own block, whatever follows them', () => {
  const strings = Array.from({ length: 200 }, (_, i) => `${'k'.repeat(i % 23)}"\\${i}\n${'é'.repeat(i % 5)}`);
  ok(JSON.stringify(strings), strings);
  // A long rest of the text after an escaped string: its decoded copy is bounded by its closing quote
  // when the rest would not fit the memory at hand.
  const long = 'v'.repeat(3 << 20);
  ok(JSON.stringify({ a: 'x\ty', b: long, c: 'q"r' }), { a: 'x\ty', b: long, c: 'q"r' });
});

test('syntax errors carry serde_json messages and positions', () => {
  const cases: [string, string][] = [
    ['', 'EOF while parsing a value at line 1 column 0'],
    ['  ', 'EOF while parsing a value at line 1 column 2'],
    ['{', 'EOF while parsing an object at line 1 column 1'],
    ['[', 'EOF while parsing a list at line 1 column 1'],
    ['[1', 'EOF while parsing a list at line 1 column 2'],
    ['[1,', 'EOF while parsing a value at line 1 column 3'],
    ['[1 2]', 'expected `,` or `]` at line 1 column 4'],
    ['[1,]', 'trailing comma at line 1 column 4'],
    ['[1,,2]', 'expected value at line 1 column 4'],
    ['{"a":1,}', 'trailing comma at line 1 column 8'],
    ['{"a" 1}', 'expected `:` at line 1 column 6'],
    ['{"a":}', 'expected value at line 1 column 6'],
    ['{"a"', 'EOF while parsing an object at line 1 column 4'],
    ['{"a":1', 'EOF while parsing an object at line 1 column 6'],
    ['{"a":1, ', 'EOF while parsing a value at line 1 column 8'],
    ['{"a":1]', 'expected `,` or `}` at line 1 column 7'],
    ['{1:2}', 'key must be a string at line 1 column 2'],
    ['tru', 'EOF while parsing a value at line 1 column 3'],
    ['tx', 'expected ident at line 1 column 2'],
    ['true x', 'trailing characters at line 1 column 6'],
    ['{} x', 'trailing characters at line 1 column 4'],
    ['"abc', 'EOF while parsing a string at line 1 column 4'],
    ['"\\', 'EOF while parsing a string at line 1 column 2'],
    ['"a\\x"', 'invalid escape at line 1 column 4'],
    ['"\\u12"', 'EOF while parsing a string at line 1 column 6'],
    ['"\\u12zz"', 'invalid escape at line 1 column 7'],
    ['"\\ud800"', 'unexpected end of hex escape at line 1 column 8'],
    ['"\\ud800\\u0041"', 'lone leading surrogate in hex escape at line 1 column 13'],
    ['"\\udc00"', 'lone leading surrogate in hex escape at line 1 column 7'],
    ['"a\tb"', 'control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3'],
    ['"a\nb"', 'control character (\\u0000-\\u001F) found while parsing a string at line 2 column 0'],
    [' \n [1,\n 2,\n x]', 'expected value at line 4 column 2'],
    ['01', 'invalid number at line 1 column 2'],
    ['-01', 'invalid number at line 1 column 3'],
    ['1.', 'EOF while parsing a value at line 1 column 2'],
    ['1.e5', 'invalid number at line 1 column 3'],
    ['-', 'EOF while parsing a value at line 1 column 1'],
    ['-a', 'invalid number at line 1 column 2'],
    ['1e+', 'EOF while parsing a value at line 1 column 3'],
    ['1e+x', 'invalid number at line 1 column 4'],
    ['+1', 'expected value at line 1 column 1'],
    ['NaN', 'expected value at line 1 column 1'],
    ['1e400', 'number out of range at line 1 column 5'],
    ['[-1e400]', 'number out of range at line 1 column 7'],
    ['['.repeat(127) + ']'.repeat(127), ''],
    ['['.repeat(128) + ']'.repeat(128), 'recursion limit exceeded at line 1 column 128'],
  ];
  for (const [text, message] of cases) {
    if (message === '') assert.ok('value' in parse(text), text);
    else err(text, `unable to parse json: ${message}`);
  }
});

test('invalid UTF-8: replaced by default, an error when lossy is false', () => {
  const quoted = new Uint8Array([0x22, 0xa1, 0xff, 0x22]);
  assert.equal(parse(quoted), { value: '\ufffd\ufffd' });
  assert.equal(parse(quoted, undefined, true), { value: '\ufffd\ufffd' });
  err(quoted, 'unable to parse json: invalid unicode code point at line 1 column 4', undefined, false);
  // Positions are those of the converted text: each replacement is three bytes.
  err(new Uint8Array([0x22, 0xff, 0x22, 0x20, 0x78]), 'unable to parse json: trailing characters at line 1 column 7');
  err(new Uint8Array([0xff]), 'unable to parse json: expected value at line 1 column 1', undefined, false);
});

test('max_depth keeps deeper containers as their raw text', () => {
  const text = '{"a": {"b" : [1, 2]}, "c": [ {"d":1} ], "e": 1.5}';
  assert.equal(parse(text, 1n), { value: { a: '{"b" : [1, 2]}', c: '[ {"d":1} ]', e: 1.5 } });
  assert.equal(parse(text, 2n), { value: { a: { b: '[1, 2]' }, c: ['{"d":1}'], e: 1.5 } });
  assert.equal(parse(' [1 , [2] ] ', 1n), { value: [1n, '[2]'] });
  assert.equal(parse('{"a":1,"a":{"x":2}}', 1n), { value: { a: '{"x":2}' } });
  assert.equal(parse('[1]', 128n), { value: [1n] });
  err('{', 'unable to read json: EOF while parsing an object at line 1 column 1', 1n);
  err('[1]', 'max_depth value should be greater than 0 and less than 128, got 0', 0n);
  err('[1]', 'max_depth value should be greater than 0 and less than 128, got 129', 129n);
  err('[1]', 'out of range integral type conversion attempted', 300n);
  err('[1]', 'out of range integral type conversion attempted', -1n);
});

test('arguments of the wrong kind', () => {
  assert.equal(stdlib.call('fn_parse_json', 1n), { error: 'expected string, got integer' });
  assert.equal(stdlib.call('fn_parse_json', '1', 'x'), { error: 'expected integer, got string' });
  assert.equal(stdlib.call('fn_parse_json', '1', undefined, null), { error: 'expected boolean, got null' });
});

test.run();
