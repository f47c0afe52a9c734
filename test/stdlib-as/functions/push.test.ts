import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { arrayItems, callOnAddresses, isShared } from './support/calls.js';

const stdlib = new Stdlib();

test('push adds one item at the end', () => {
  assert.equal(stdlib.call('fn_push', [1n, 2n], 3n), { value: [1n, 2n, 3n] });
  assert.equal(stdlib.call('fn_push', [], 'bar'), { value: ['bar'] });
  assert.equal(stdlib.call('fn_push', [1n, 2n, 3n, 4n], [5n]), { value: [1n, 2n, 3n, 4n, [5n]] });
});

test('the argument is left unchanged and its items become shared', () => {
  const { args, result } = callOnAddresses(stdlib, 'fn_push', [{ a: 1n }], 2n);
  assert.equal(stdlib.get(args[0]!), [{ a: 1n }]);
  assert.equal(stdlib.get(result), [{ a: 1n }, 2n]);
  assert.ok(isShared(stdlib, arrayItems(stdlib, result)[0]!));
});

test("a non-array fails with VRL's type error", () => {
  assert.equal(stdlib.call('fn_push', 1n, 1n), { error: 'expected array, got integer' });
});

test.run();
