import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RemapValue } from '../../../abi/values.js';
import { IntegralFloat } from '../../../abi/codec.js';
import type { JsFunction } from '../../../runtime/imports.js';
import { JS_FUNCTION_NAMES, loadJsFunctions } from '../../../runtime/js-functions/index.js';

const JS_FUNCTIONS = await loadJsFunctions(JS_FUNCTION_NAMES);
import { jsContext } from '../../support/js-context.js';

/** Calls a JS function; a thrown error comes back as `error: <message>`. */
function call(name: string, ...args: RemapValue[]): RemapValue {
  try {
    return (JS_FUNCTIONS[name] as JsFunction)(args, jsContext());
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** Plain objects, so that uvu compares results built on null prototypes. */
const plain = (v: RemapValue): unknown =>
  JSON.parse(JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x)));

test('parse_query_string: repeats collect arrays, only one leading ? is dropped', () => {
  assert.equal(plain(call('parse_query_string', '??a=1&a=2&a=3&b=%C3%A9+x&&c')), {
    '?a': '1',
    a: ['2', '3'],
    b: 'é x',
    c: '',
  });
  assert.equal(plain(call('parse_query_string', '')), {});
});

test('parse_url: parts, known ports and errors', () => {
  assert.equal(plain(call('parse_url', 'https://user@example.com:8080/a%20b?x=1&x=2#f', null)), {
    scheme: 'https',
    username: 'user',
    password: '',
    host: 'example.com',
    port: '8080n',
    path: '/a%20b',
    query: { x: '2' },
    fragment: 'f',
  });
  assert.equal(plain(call('parse_url', 'http://bücher.example/', true)), {
    scheme: 'http',
    username: '',
    password: '',
    host: 'xn--bcher-kva.example',
    port: '80n',
    path: '/',
    query: {},
    fragment: null,
  });
  assert.is(call('parse_url', 'example.com', null), 'error: unable to parse url: relative URL without a base');
  assert.is(call('parse_url', 'http://x:99999999/', null), 'error: unable to parse url: invalid port number');
});

test('parse_tokens: words, strings, brackets and null for -', () => {
  assert.equal(call('parse_tokens', '  a "b \\" c" [d e] - x"y" [open'), [
    'a',
    'b \\" c',
    'd e',
    null,
    'x',
    'y',
    '[open',
  ]);
  assert.equal(call('parse_tokens', ''), []);
  assert.equal(call('parse_tokens', 'é "ü"'), ['é', 'ü']);
});

test('parse_csv and encode_csv', () => {
  assert.equal(call('parse_csv', 'a,"b,""c""\nd",é\nnext', null), ['a', 'b,"c"\nd', 'é']);
  assert.equal(call('parse_csv', '\n\n', null), []);
  assert.equal(call('parse_csv', 'a;b', ';'), ['a', 'b']);
  assert.is(call('parse_csv', 'a', ';;'), 'error: delimiter must be a single character');
  assert.is(call('encode_csv', ['a', 'b"c', 1n, 1.5, true, null, 'x\ny'], null), 'a,"b""c",1,1.5,true,,"x\ny"');
  assert.is(call('encode_csv', [''], null), '""');
  assert.is(
    call('encode_csv', [{}], null),
    'error: expected string, integer, float, boolean, timestamp or null, got object',
  );
  const row = Array.from({ length: 10000 }, (_, i) => `f${i}`);
  assert.equal(call('parse_csv', call('encode_csv', row, null), null), row);
});

test('parse_ruby_hash', () => {
  assert.equal(plain(call('parse_ruby_hash', '{ "a" => [1, -2.5, nil, true], :b => { c: :sym, \'d\' => "x\\ty" } }')), {
    a: ['1n', -2.5, null, true],
    b: { c: 'sym', d: 'x\ty' },
  });
  assert.equal(plain(call('parse_ruby_hash', '{}')), {});
  assert.match(String(call('parse_ruby_hash', '{ "a" => }')), /^error: unable to parse ruby hash: /);
});

test('parse_yaml and parse_cbor keep integers apart from floats', () => {
  assert.equal(plain(call('parse_yaml', 'a: 1\nb: 1.0\nc: [yes, ~]\n"é": ü')), {
    a: '1n',
    b: 1,
    c: ['yes', null],
    é: 'ü',
  });
  assert.match(String(call('parse_yaml', 'a: [1')), /^error: unable to parse yaml: /);
  assert.equal(plain(call('parse_cbor', Uint8Array.from([0xa1, 0x61, 0x61, 0x82, 0x01, 0xf9, 0x3e, 0x00]))), {
    a: ['1n', 1.5],
  });
});

test("parse_cbor reads as VRL (ciborium) does: the reference engine's values and texts", () => {
  const cbor = (hex: string) => call('parse_cbor', Uint8Array.from(Buffer.from(hex, 'hex')));
  // A float stays a float also when whole, in each width; integers beyond i64 become floats.
  for (const one of ['f93c00', 'fa3f800000', 'fb3ff0000000000000']) assert.equal(cbor(one), new IntegralFloat(1));
  assert.equal(cbor('1b8000000000000000'), new IntegralFloat(2 ** 63));
  assert.is(cbor('3b7fffffffffffffff'), -(2n ** 63n));
  // Indefinite lengths, undefined as null, the last of repeated keys, bytes after the item ignored.
  assert.equal(plain(cbor('bf6161f7616101616102ff00')), { a: '2n' });
  assert.equal(plain(cbor('9f9f01ff02ff')), [['1n'], '2n']);
  const errors: Array<[string, string]> = [
    ['', 'Io(EndOfFile(()))'],
    ['a1', 'Io(EndOfFile(()))'],
    ['fb3ff0', 'Io(EndOfFile(()))'],
    ['f97e00', 'Semantic(None, "invalid value: floating point `NaN`, expected any valid JSON value")'],
    ['4401020304', 'Semantic(None, "invalid type: byte array, expected any valid JSON value")'],
    ['c101', 'Semantic(None, "invalid type: enum, expected any valid JSON value")'],
    [
      'c249010000000000000000',
      'Semantic(None, "invalid type: integer `18446744073709551616` as u128, expected any valid JSON value")',
    ],
    [
      '3bffffffffffffffff',
      'Semantic(None, "invalid type: integer `-18446744073709551616` as i128, expected any valid JSON value")',
    ],
    ['ff', 'Semantic(None, "invalid type: break, expected non-break")'],
    ['a10101', 'Semantic(None, "invalid type: integer `1`, expected string")'],
    ['a1fb3ff000000000000001', 'Semantic(None, "invalid type: floating point `1.0`, expected string")'],
    ['a1c1f50101', 'Semantic(None, "invalid type: boolean `true`, expected string")'],
    ['a1f601', 'Semantic(None, "invalid type: null, expected string")'],
    ['a1410101', 'Semantic(None, "invalid type: bytes, expected string")'],
    ['a18001', 'Semantic(None, "invalid type: sequence, expected string")'],
  ];
  for (const [hex, text] of errors) assert.is(cbor(hex), `error: unable to parse cbor: ${text}`, hex);
});

test("parse_xml follows VRL's node walk and options", () => {
  const xml = '<r a="1"><x>1</x><x>true</x><y/><z>null</z><t>é</t></r>';
  assert.equal(plain(call('parse_xml', xml, null, null, null, null, null, null, null, null)), {
    r: { '@a': '1', x: ['1n', true], y: '', z: null, t: 'é' },
  });
  assert.equal(plain(call('parse_xml', xml, null, false, null, null, null, false, false, false)), {
    r: { x: ['1', 'true'], y: '', z: 'null', t: 'é' },
  });
  assert.equal(plain(call('parse_xml', '<a>x</a>', null, null, null, '#', true, null, null, null)), {
    a: { '#': 'x' },
  });
  assert.match(
    String(call('parse_xml', '<a><b></a>', null, null, null, null, null, null, null, null)),
    /^error: unable to parse xml: /,
  );
});

test('parse_etld: default list, plus parts and unknown suffixes', () => {
  assert.equal(plain(call('parse_etld', 'a.b.github.io', 1n, null)), {
    etld: 'github.io',
    etld_plus: 'b.github.io',
    known_suffix: true,
  });
  assert.equal(plain(call('parse_etld', 'x.example', 5n, null)), {
    etld: 'example',
    etld_plus: 'x.example',
    known_suffix: false,
  });
});

test.run();
