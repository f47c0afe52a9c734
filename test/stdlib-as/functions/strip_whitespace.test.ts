import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

const stdlib = new Stdlib();
const strip = (value: unknown) => stdlib.call('fn_strip_whitespace', value);

test('upstream examples', () => {
  assert.equal(strip('  A sentence.  '), { value: 'A sentence.' });
  assert.equal(strip('  foobar'), { value: 'foobar' });
  assert.equal(strip('foo bar  '), { value: 'foo bar' });
  assert.equal(strip('\n\nfoo bar\n  '), { value: 'foo bar' });
});

test('Unicode White_Space at both ends, nothing else', () => {
  assert.equal(strip('\u00a0\u2003\t\r\u000b\u000c\u0085 x y \u3000\u205f\u2029'), { value: 'x y' });
  assert.equal(strip('\u200bx\u200b'), { value: '\u200bx\u200b' });
  assert.equal(strip('   '), { value: '' });
  assert.equal(strip(''), { value: '' });
  assert.equal(strip(1.5), { error: 'expected string, got float' });
});

test.run();
