import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();

test('dotted quads of octets without leading zeros are IPv4 addresses', () => {
  for (const text of ['10.0.102.37', '0.0.0.0', '255.255.255.255', '192.168.0.1']) {
    assert.equal(stdlib.call('fn_is_ipv4', text), { value: true }, text);
  }
});

test('anything else is not', () => {
  const texts = [
    '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
    'foobar',
    '',
    '01.2.3.4',
    '1.2.3.04',
    '256.1.1.1',
    '1.2.3',
    '1.2.3.4.5',
    '1.2.3.4 ',
    ' 1.2.3.4',
    '1..2.3',
    '1.2.3.',
    '0001.2.3.4',
    '+1.2.3.4',
    '::ffff:1.2.3.4',
  ];
  for (const text of texts) assert.equal(stdlib.call('fn_is_ipv4', text), { value: false }, text);
});

test("a non-string fails with VRL's type error", () => {
  assert.equal(stdlib.call('fn_is_ipv4', 1n), { error: 'expected string, got integer' });
});

test.run();
