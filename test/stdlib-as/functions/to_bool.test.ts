import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Regex, Timestamp } from '../../../abi/values.js';

const stdlib = new Stdlib();
const toBool = (value: unknown) => stdlib.call('fn_to_bool', value);

test('booleans stay, numbers are true unless zero, null is false', () => {
  assert.equal(toBool(true), { value: true });
  assert.equal(toBool(false), { value: false });
  assert.equal(toBool(0n), { value: false });
  assert.equal(toBool(2n), { value: true });
  assert.equal(toBool(0.0), { value: false });
  assert.equal(toBool(-0.0), { value: false });
  assert.equal(toBool(5.6), { value: true });
  assert.equal(toBool(null), { value: false });
});

test('strings spell a boolean in any case, or hold an integer', () => {
  for (const text of ['true', 't', 'yes', 'y', 'TRUE', 'Yes', 'Y', '1', '-3', '+7'])
    assert.equal(toBool(text), { value: true }, text);
  for (const text of ['false', 'f', 'no', 'n', 'FALSE', 'No', 'F', '0', '00', '+0', '-0'])
    assert.equal(toBool(text), { value: false }, text);
});

test('other strings fail with the text quoted as Rust debug-prints it', () => {
  assert.equal(toBool('foobar'), { error: 'Invalid boolean value "foobar"' });
  assert.equal(toBool(''), { error: 'Invalid boolean value ""' });
  assert.equal(toBool(' 1'), { error: 'Invalid boolean value " 1"' });
  assert.equal(toBool('yess'), { error: 'Invalid boolean value "yess"' });
  assert.equal(toBool('99999999999999999999'), { error: 'Invalid boolean value "99999999999999999999"' });
  assert.equal(toBool('x\u0000'), { error: 'Invalid boolean value "x\\0"' });
});

test('timestamps, regexes and collections cannot be coerced', () => {
  assert.equal(toBool(new Timestamp(1_577_836_800_000_000_000n)), { error: 'unable to coerce timestamp into boolean' });
  assert.equal(toBool([]), { error: 'unable to coerce array into boolean' });
  assert.equal(toBool({}), { error: 'unable to coerce object into boolean' });
  assert.equal(toBool(new Regex('foo')), { error: 'unable to coerce regex into boolean' });
});

test.run();
