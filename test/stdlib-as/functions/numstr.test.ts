// The numbers, strings, paths, cases, syslog names and random functions of the stdlib (issue 9's `numstr`
// group): edge cases beyond their upstream examples, which run from their definitions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Timestamp } from '../../../abi/values.js';
import { IntegralFloat } from '../../../abi/codec.js';

const stdlib = new Stdlib();
const call = (name: string, ...args: unknown[]) => stdlib.call(`fn_${name}`, ...args);
const value = (name: string, ...args: unknown[]) => (call(name, ...args) as { value: unknown }).value;
/** An integral float (a plain integral JS number is moved as an integer). */
const float = (x: number) => new IntegralFloat(x);
const INVALID_UTF8 = new Uint8Array([0x61, 0xff, 0x62]);

test('abs, ceil, floor, round: integers unchanged, floats at a precision, halves away from zero', () => {
  assert.equal(call('abs', -9223372036854775808n), { value: -9223372036854775808n });
  assert.equal(call('abs', -0.5), { value: 0.5 });
  assert.equal(call('round', -2.5), { value: -3 });
  assert.equal(call('round', 2.5), { value: 3 });
  assert.equal(call('round', 1234.5678, -2n), { value: 1200 });
  assert.equal(call('ceil', 7n, 2n), { value: 7n });
  assert.equal(call('floor', -4.345, 2n), { value: -4.35 });
  assert.equal(call('ceil', 1.5, 400n), { value: 0 }); // inf / inf is NaN, which VRL turns into 0.0
  assert.equal(call('round', 'x'), { error: 'expected integer or float, got string' });
});

test('mod: integer and float remainders with the dividend sign, and VRL errors', () => {
  assert.equal(call('mod', -7n, 3n), { value: -1n });
  assert.equal(call('mod', 7.5, 2n), { value: 1.5 });
  assert.equal(call('mod', -9223372036854775808n, -1n), { value: 0n });
  assert.equal(call('mod', 5n, 0n), { error: "can't divide by zero" });
  assert.equal(call('mod', 5n, 'a'), { error: 'expected integer or float, got string' });
});

test('format_int: bases 2 to 36, the sign, i64::MIN', () => {
  assert.equal(call('format_int', 255n, 2n), { value: '11111111' });
  assert.equal(call('format_int', 35n, 36n), { value: 'z' });
  assert.equal(call('format_int', 0n), { value: '0' });
  assert.equal(call('format_int', -9223372036854775808n, 16n), { value: '-8000000000000000' });
  assert.equal(call('format_int', 1n, 37n), { error: 'invalid base 37: must be be between 2 and 36 (inclusive)' });
  assert.equal(call('format_int', 1n, 1n), { error: 'invalid base 1: must be be between 2 and 36 (inclusive)' });
});

test('format_number: scale truncates or pads, grouping as VRL inserts it, Unicode separators', () => {
  assert.equal(call('format_number', 1234567.891, 2n, undefined, ','), { value: '1,234,567.89' });
  assert.equal(call('format_number', 1234n, 2n), { value: '1234.00' });
  assert.equal(call('format_number', 12.5, 0n), { value: '12' });
  assert.equal(call('format_number', 123456n, undefined, undefined, ' '), { value: '123 456' });
  assert.equal(call('format_number', -1234567n, undefined, undefined, ','), { value: '-1,234,567' });
  assert.equal(call('format_number', -123456n, undefined, undefined, ','), { value: '-,123,456' });
  assert.equal(call('format_number', 0.1, 3n, '·', '’'), { value: '0·100' });
  assert.equal(call('format_number', float(5)), { value: '5' });
  assert.equal(call('format_number', 1n, -1n), { error: 'scale must be between 0 and 65535' });
});

test('parse_bytes: units, bases, spaces, errors', () => {
  assert.equal(call('parse_bytes', '1.5 GiB', 'MiB'), { value: 1536 });
  assert.equal(call('parse_bytes', '1kB', 'B', '10'), { value: 1000 });
  assert.equal(call('parse_bytes', '1kiB', 'B', '10'), { value: 1024 });
  assert.equal(call('parse_bytes', '.5KB', 'B'), { value: 512 });
  assert.equal(call('parse_bytes', '12', 'B'), { error: "unable to parse bytes: '12'" });
  assert.equal(call('parse_bytes', '', 'B'), { error: "unable to parse bytes: ''" });
  assert.equal(call('parse_bytes', '1 XB', 'B'), { error: "unknown unit format: 'XB'" });
  assert.equal(call('parse_bytes', '1KiB', 'XB'), { error: "unknown unit format: 'XB'" });
  assert.equal(call('parse_bytes', '1 KiB ', 'B'), { error: "unable to parse bytes: '1 KiB '" });
});

test('parse_duration: several parts, µs, exact decimal units, errors', () => {
  assert.equal(call('parse_duration', '1h30m', 'm'), { value: 90 });
  assert.equal(call('parse_duration', '1.5 s', 'ms'), { value: 1500 });
  assert.equal(call('parse_duration', '250µs', 'us'), { value: 250 });
  assert.equal(call('parse_duration', '1d', 'h'), { value: 24 });
  assert.equal(call('parse_duration', '100ns', 's'), { value: 1e-7 });
  assert.equal(call('parse_duration', 'soon', 's'), { error: "unable to parse duration: 'soon'" });
  assert.equal(call('parse_duration', '', 's'), { error: "unable to parse duration: ''" });
  assert.equal(call('parse_duration', '5x', 's'), { error: "unknown duration unit: 'x'" });
  assert.equal(call('parse_duration', '5s', 'w'), { error: "unknown unit format: 'w'" });
});

test('haversine: same point, antipodes, miles', () => {
  assert.equal(call('haversine', float(10), float(20), float(10), float(20)), { value: { bearing: 0, distance: 0 } });
  assert.equal(value('haversine', float(0), float(0), float(0), float(180)), { bearing: 90, distance: 20015.114442 });
  assert.equal(value('haversine', float(0), float(0), float(0), float(1), 'miles'), {
    bearing: 90,
    distance: 69.0934204,
  });
  assert.equal(call('haversine', 0n, float(0), float(0), float(0)), { error: 'expected float, got integer' });
});

test('basename, dirname, split_path: Rust Path components', () => {
  const cases: [string, string | null, string, string[]][] = [
    ['/usr/local/bin/vrl', 'vrl', '/usr/local/bin', ['/', 'usr', 'local', 'bin', 'vrl']],
    ['a//b/./c/.', 'c', 'a//b', ['a', 'b', 'c']],
    ['./file', 'file', '.', ['.', 'file']],
    ['.', null, '.', ['.']],
    ['..', null, '.', ['..']],
    ['/', null, '/', ['/']],
    ['', null, '.', []],
    ['/a', 'a', '/', ['/', 'a']],
    ['relative/dir/', 'dir', 'relative', ['relative', 'dir']],
    ['/héllo/wörld', 'wörld', '/héllo', ['/', 'héllo', 'wörld']],
  ];
  for (const [path, base, dir, parts] of cases) {
    assert.equal(call('basename', path), { value: base }, `basename ${path}`);
    assert.equal(call('dirname', path), { value: dir }, `dirname ${path}`);
    assert.equal(call('split_path', path), { value: parts }, `split_path ${path}`);
  }
  assert.equal(call('basename', INVALID_UTF8), { value: 'a\uFFFDb' });
  assert.equal(call('split_path', 1n), { error: 'expected string, got integer' });
});

test('case conversions: detected words, original cases, acronyms, digits, Unicode', () => {
  assert.equal(call('camelcase', 'HTTPRequest id'), { value: 'httpRequestId' });
  assert.equal(call('pascalcase', 'foo-bar_baz qux'), { value: 'FooBarBazQux' });
  assert.equal(call('snakecase', 'XMLHttpRequest2Go'), { value: 'xml_http_request_2_go' });
  assert.equal(call('kebabcase', 'fooBar', 'snake_case'), { value: 'foobar' });
  assert.equal(call('screamingsnakecase', 'fooBar', 'camelCase'), { value: 'FOO_BAR' });
  assert.equal(call('snakecase', 'ÀlaCarteÉté'), { value: 'àla_carte_été' });
  assert.equal(call('camelcase', 'straße_groß', 'snake_case'), { value: 'straßeGroß' });
  assert.equal(call('pascalcase', 'straße'), { value: 'Straße' });
  assert.equal(call('snakecase', 's3Bucket', undefined, ['lower_digit', 'digit_upper']), { value: 's3bucket' });
  assert.equal(call('kebabcase', ''), { value: '' });
  assert.equal(call('snakecase', '__a__'), { value: 'a' });
  assert.equal(call('camelcase', 'a', 'Title'), { error: 'unknown case' });
  assert.equal(call('snakecase', 'a', undefined, ['nope']), { error: 'unknown boundary' });
  assert.equal(call('camelcase', 1n), { error: 'expected string, got integer' });
});

test('strlen, chunks: code points, bytes, invalid UTF-8, large input', () => {
  assert.equal(call('strlen', ''), { value: 0n });
  assert.equal(call('strlen', '👨‍👩‍👧'), { value: 5n });
  assert.equal(call('strlen', INVALID_UTF8), { value: 3n });
  assert.equal(call('strlen', 'é'.repeat(100_000)), { value: 100_000n });
  assert.equal(call('chunks', '', 3n), { value: [] });
  assert.equal(call('chunks', 'abcde', 2n), { value: ['ab', 'cd', 'e'] });
  assert.equal(call('chunks', 'abc', 9223372036854775807n), { value: ['abc'] });
  assert.equal(call('chunks', 'abc', 0n), { error: '"chunk_size" must be at least 1 byte' });
  const big = value('chunks', 'x'.repeat(1 << 20), 1000n) as string[];
  assert.is(big.length, 1049);
  assert.is(big[1048]!.length, 576);
});

test('contains_all and includes', () => {
  assert.equal(call('contains_all', 'Ünïcödé text', ['ÜNÏ', 'TEXT'], false), { value: true });
  assert.equal(call('contains_all', 'abc', []), { value: true });
  assert.equal(call('contains_all', 'abc', ['x', 1n]), { value: false });
  assert.equal(call('contains_all', 'abc', ['a', 1n]), { error: 'expected string, got integer' });
  assert.equal(call('includes', [1n, float(2), 'a', [1n], { b: null }], { b: null }), { value: true });
  assert.equal(call('includes', [1n], float(1)), { value: false });
  assert.equal(call('includes', [], null), { value: false });
  assert.equal(call('includes', 'a', 'a'), { error: 'expected array, got string' });
});

test('syslog keywords and codes', () => {
  assert.equal(call('to_syslog_facility', 15n), { value: 'solaris-cron' });
  assert.equal(call('to_syslog_facility', 23n), { value: 'local7' });
  assert.equal(call('to_syslog_facility', -1n), { error: 'facility code -1 not valid' });
  assert.equal(call('to_syslog_facility_code', 'local0'), { value: 16n });
  assert.equal(call('to_syslog_facility_code', 'Kern'), { error: "syslog facility 'Kern' not valid" });
  assert.equal(call('to_syslog_level', 0n), { value: 'emerg' });
  assert.equal(call('to_syslog_level', 8n), { error: 'severity level 8 not valid' });
  assert.equal(call('to_syslog_severity', 'warn'), { value: 4n });
  assert.equal(call('to_syslog_severity', 'panic'), { value: 0n });
  assert.equal(call('to_syslog_severity', ''), { error: 'syslog level  not valid' });
});

test('random functions stay in their ranges and check them', () => {
  for (let i = 0; i < 200; i++) {
    const n = value('random_int', -3n, 3n) as bigint;
    assert.ok(n >= -3n && n < 3n);
    const f = value('random_float', -1.5, -1.25) as number;
    assert.ok(f >= -1.5 && f < -1.25);
  }
  const wide = value('random_int', -9223372036854775808n, 9223372036854775807n) as bigint;
  assert.ok(wide < 9223372036854775807n);
  const huge = value('random_float', -1.7976931348623157e308, 1.7976931348623157e308) as number;
  assert.ok(Number.isFinite(huge));
  assert.equal(call('random_int', 1n, 1n), { error: 'max must be greater than min' });
  assert.equal(call('random_float', float(2), float(1)), { error: 'max must be greater than min' });
  assert.is(typeof value('random_bool'), 'boolean');
  assert.is((value('random_bytes', 65536n) as Uint8Array | string).length > 0, true);
  assert.equal(call('random_bytes', 0n), { value: '' });
  assert.equal(call('random_bytes', -1n), { error: 'Length cannot be negative' });
  assert.equal(call('random_bytes', 65537n), { error: 'Length is too large. Maximum is 64k' });
});

test('uuid_v7 and uuid_from_friendly_id', () => {
  const uuid = value('uuid_v7', new Timestamp(1609366853824727000n)) as string;
  assert.match(uuid, /^0176b5bd-5d19-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(value('uuid_v7') as string, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(call('uuid_from_friendly_id', '0'), { value: '00000000-0000-0000-0000-000000000000' });
  assert.equal(call('uuid_from_friendly_id', '7n42DGM5Tflk9n8mt7Fhc7'), {
    value: 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  });
  assert.equal(call('uuid_from_friendly_id', '7n42DGM5Tflk9n8mt7Fhc8'), {
    error: 'failed to decode friendly id: Decoded number cannot fit into a `u128`',
  });
  assert.equal(call('uuid_from_friendly_id', 'ab-c'), {
    error: "failed to decode friendly id: Encoded input contains the invalid byte b'-' at index 2",
  });
  assert.equal(call('uuid_from_friendly_id', new Uint8Array([0x31, 0xff])), {
    error: "failed to decode friendly id: Encoded input contains the invalid byte b'\\xff' at index 1",
  });
  assert.equal(call('uuid_from_friendly_id', ''), {
    error: 'failed to decode friendly id: Encoded input is an empty string',
  });
  // More than 22 digits (after leading zeros) overflow before any byte is checked, as in the base62 crate.
  assert.equal(call('uuid_from_friendly_id', '00' + '-'.repeat(23)), {
    error: 'failed to decode friendly id: Decoded number cannot fit into a `u128`',
  });
  assert.equal(call('uuid_from_friendly_id', '0'.repeat(30) + '7n42DGM5Tflk9n8mt7Fhc7'), {
    value: 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  });
});

test.run();
