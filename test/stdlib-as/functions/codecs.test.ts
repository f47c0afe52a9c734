// The stdlib-backed functions of the codecs group: Base16, Base64, percent encoding and the ip_* functions.
// The exports are called directly (the definitions' examples run in test/compiler/functions/examples.test.ts) for
// bad input (VRL's error texts), Unicode, empty and large values.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
/** The export's result value, or `error: <message>`. */
function call(name: string, ...args: unknown[]): unknown {
  const outcome = stdlib.call(`fn_${name}`, ...args);
  return 'value' in outcome ? outcome.value : `error: ${outcome.error}`;
}

const bytes = (value: unknown): Buffer =>
  Buffer.from(typeof value === 'string' ? Buffer.from(value) : (value as Uint8Array));

test('Base16 and Base64 round trips of every byte, Unicode, empty and large values', () => {
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  for (const input of [Buffer.alloc(0), all, Buffer.from('héllo ✓ 😀'), Buffer.alloc(3_000_001, 0xa5)]) {
    assert.equal(bytes(call('decode_base16', call('encode_base16', input))), input);
    for (const charset of ['standard', 'url_safe']) {
      for (const padding of [true, false]) {
        const encoded = call('encode_base64', input, padding, charset) as string;
        const standard = Buffer.from(input).toString('base64');
        const alphabet = charset === 'url_safe' ? standard.replace(/\+/g, '-').replace(/\//g, '_') : standard;
        assert.is(encoded, padding ? alphabet : alphabet.replace(/=+$/, ''));
        assert.equal(bytes(call('decode_base64', encoded, charset)), input);
      }
    }
  }
  assert.is(call('encode_base16', '✓'), 'e29c93');
  assert.is(call('decode_base16', 'E29C93'), '✓');
});

test("invalid Base16 and Base64 fail with VRL's messages", () => {
  for (const text of ['abc', 'zz', 'a '])
    assert.is(call('decode_base16', text), 'error: unable to decode value from base16', text);
  // Bad symbols, a lone symbol, excess padding, non-zero trailing bits, the other alphabet.
  for (const text of ['ab$d', 'abcde', 'YQ===', 'YQ=a', 'YR==', 'Zm9v=', '-_8=']) {
    assert.is(call('decode_base64', text), 'error: unable to decode value from base64', text);
  }
  assert.is(call('decode_base64', 'YQ'), 'a'); // padding is optional
  assert.equal(bytes(call('decode_base64', '-_8=', 'url_safe')), Buffer.from([0xfb, 0xff]));
  assert.is(call('decode_base64', 'YQ', 'base32'), 'error: unknown charset');
  assert.is(call('encode_base64', 1), 'error: expected string, got integer');
  assert.is(call('decode_base64', ''), '');
});

test('percent encoding: the ASCII sets, Unicode, invalid UTF-8 and stray percent signs', () => {
  const ascii = Array.from({ length: 0x7f }, (_, i) => String.fromCharCode(i + 1)).join('');
  assert.is(
    call('encode_percent', ascii, 'CONTROLS'),
    ascii.replace(/[\x01-\x1f\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`),
  );
  assert.is(call('encode_percent', 'a b"#<>`?{}', 'QUERY'), 'a%20b%22%23%3C%3E`?{}');
  assert.is(call('encode_percent', 'a b"#<>`?{}', 'PATH'), 'a%20b%22%23%3C%3E%60%3F%7B%7D');
  assert.is(call('encode_percent', "a'b", 'SPECIAL'), 'a%27b');
  assert.is(call('encode_percent', 'a/b:c=d', 'USERINFO'), 'a%2Fb%3Ac%3Dd');
  assert.is(call('encode_percent', 'a$b+c', 'COMPONENT'), 'a%24b%2Bc');
  assert.is(call('encode_percent', 'a!b~c*', 'WWW_FORM_URLENCODED'), 'a%21b%7Ec*');
  assert.is(call('encode_percent', 'a"b`c', 'FRAGMENT'), 'a%22b%60c');
  assert.is(call('encode_percent', 'é-x'), '%C3%A9%2Dx');
  assert.is(call('encode_percent', Buffer.from([0xff])), '%EF%BF%BD');
  assert.is(call('decode_percent', '%C3%A9%2dx%'), 'é-x%');
  assert.is(call('decode_percent', '%zz%4'), '%zz%4');
  assert.is(call('decode_percent', '%FF'), '\uFFFD');
  assert.is(call('decode_percent', ''), '');
  const large = 'a b'.repeat(1_000_000);
  assert.is(call('decode_percent', call('encode_percent', large)), large);
});

test('ip_aton, ip_ntoa, ip_pton and ip_ntop', () => {
  assert.is(call('ip_aton', '255.255.255.255'), 4294967295n);
  assert.is(call('ip_aton', '0.0.0.0'), 0n);
  for (const bad of ['1.2.3', '01.2.3.4', '::1', '', '1.2.3.4 ']) {
    assert.is(call('ip_aton', bad), 'error: unable to parse IPv4 address: invalid IPv4 address syntax', bad);
  }
  assert.is(call('ip_ntoa', 4294967295n), '255.255.255.255');
  assert.is(call('ip_ntoa', -1n), 'error: cannot convert to u32: out of range integral type conversion attempted');
  assert.is(
    call('ip_ntoa', 4294967296n),
    'error: cannot convert to u32: out of range integral type conversion attempted',
  );
  assert.equal(bytes(call('ip_pton', '::ffff:1.2.3.4')), Buffer.from('00000000000000000000ffff01020304', 'hex'));
  assert.is(call('ip_pton', 'nope'), 'error: unable to parse IP address: invalid IP address syntax');
  assert.is(call('ip_ntop', Buffer.from('00000000000000000000ffff01020304', 'hex')), '::ffff:1.2.3.4');
  assert.is(call('ip_ntop', Buffer.alloc(16)), '::');
  assert.is(call('ip_ntop', Buffer.from('00010000000000010000000000000001', 'hex')), '1:0:0:1::1');
  assert.is(call('ip_ntop', Buffer.from('00010000000000010000000000010001', 'hex')), '1::1:0:0:1:1');
  assert.is(call('ip_ntop', Buffer.from('20010db8000000010001000100010001', 'hex')), '2001:db8:0:1:1:1:1:1');
  assert.is(call('ip_ntop', Buffer.from('00000000000000000000000001020304', 'hex')), '::102:304');
  assert.is(call('ip_ntop', 'abc'), 'error: "value" must be of length 4 or 16 bytes');
});

test('ip_cidr_contains, ip_subnet, ip_to_ipv6 and ipv6_to_ipv4', () => {
  assert.is(call('ip_cidr_contains', '10.0.0.0/8', '10.255.0.1'), true);
  assert.is(call('ip_cidr_contains', '10.0.0.1', '10.0.0.1'), true);
  assert.is(call('ip_cidr_contains', '0.0.0.0/0', '1.2.3.4'), true);
  assert.is(call('ip_cidr_contains', '::/0', '1.2.3.4'), false);
  assert.is(call('ip_cidr_contains', ['10.0.0.0/8', 'not a cidr'], '10.1.1.1'), true);
  assert.is(
    call('ip_cidr_contains', ['not a cidr', '10.0.0.0/8'], '10.1.1.1'),
    "error: unable to parse CIDR: couldn't parse address in network: invalid IP address syntax",
  );
  assert.is(
    call('ip_cidr_contains', '10.0.0.1/8', '10.1.1.1'),
    'error: unable to parse CIDR: host part of address was not zero',
  );
  assert.is(
    call('ip_cidr_contains', '10.0.0.0/33', '10.1.1.1'),
    "error: unable to parse CIDR: couldn't parse length in network: invalid length for network",
  );
  assert.is(call('ip_cidr_contains', [1], '10.1.1.1'), 'error: expected string, got integer');
  assert.is(call('ip_subnet', '2001:db8::ffff', 'ffff:ffff::'), '2001:db8::');
  assert.is(call('ip_subnet', '10.1.2.3', '/0'), '0.0.0.0');
  assert.is(call('ip_subnet', '10.1.2.3', '/33'), 'error: subnet cannot be greater than 32 for ipv4 addresses');
  assert.is(call('ip_subnet', '10.1.2.3', '/x'), 'error: /x is not a valid subnet');
  assert.is(call('ip_subnet', '10.1.2.3', '::'), 'error: attempting to mask an ipv4 address with an ipv6 mask');
  assert.is(call('ip_subnet', '10.1.2.3', 'mask'), 'error: unable to parse mask: invalid IP address syntax');
  assert.is(call('ip_to_ipv6', '2001:DB8:0:0::1'), '2001:db8::1');
  assert.is(call('ipv6_to_ipv4', '::1.2.3.4'), '1.2.3.4');
  assert.is(call('ipv6_to_ipv4', '10.0.0.1'), '10.0.0.1');
  assert.is(call('ipv6_to_ipv4', '2001:db8::1'), 'error: IPV6 address 2001:db8::1 is not compatible with IPV4');
  assert.is(call('ipv6_to_ipv4', '✓'), 'error: unable to parse IP address: invalid IP address syntax');
});

test.run();
