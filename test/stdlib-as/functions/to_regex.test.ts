import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { Regex } from '../../../abi/values.js';

const stdlib = new Stdlib();

test('a valid pattern becomes a regex value', () => {
  assert.equal(stdlib.call('fn_to_regex', '^foo$'), { value: new Regex('^foo$') });
  assert.equal(stdlib.call('fn_to_regex', '(?i)(?P<word>a+)\\d'), { value: new Regex('(?i)(?P<word>a+)\\d') });
});

test('an invalid pattern fails with the reason', () => {
  assert.equal(stdlib.call('fn_to_regex', 'a('), {
    error: 'could not create regex: regex parse error: unterminated group',
  });
});

test("a non-string fails with VRL's type error", () => {
  assert.equal(stdlib.call('fn_to_regex', 1n), { error: 'expected string, got integer' });
});

test.run();
