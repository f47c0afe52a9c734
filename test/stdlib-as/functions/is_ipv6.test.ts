import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('IPv6 addresses as Rust reads them: groups, one `::`, an IPv4 tail', () => {
  const texts = [
    '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
    '2001:db8::8a2e:370:7334',
    '::',
    '::1',
    '1::',
    'FE80::1',
    '::ffff:1.2.3.4',
    '64:ff9b::192.0.2.33',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7::',
    '::2:3:4:5:6:7:8',
    '1:2:3:4:5:6:1.2.3.4',
    '0000:0000:0000:0000:0000:0000:0000:0000',
  ];
  for (const text of texts) assert.equal(stdlib.call('fn_is_ipv6', text), { value: true }, text);
});

test('anything else is not', () => {
  const texts = [
    '10.0.102.37',
    'foobar',
    '',
    ':',
    ':::',
    '1:::2',
    '1::2::3',
    '12345::',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:1.2.3.4',
    '1:2:3:4:5:6::1.2.3.4',
    '1.2.3.4::',
    '::1.2.3',
    '::01.2.3.4',
    'fe80::1%eth0',
    '[::1]',
    'g::',
    ' ::1',
    ':1::',
  ];
  for (const text of texts) assert.equal(stdlib.call('fn_is_ipv6', text), { value: false }, text);
});

test("a non-string fails with VRL's type error", () => {
  assert.equal(stdlib.call('fn_is_ipv6', null), { error: 'expected string, got null' });
});

test.run();
