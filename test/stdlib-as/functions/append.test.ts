import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { arrayItems, callOnAddresses, isShared } from './support/calls.js';

const stdlib = new Stdlib();

test('append adds every item of the second array', () => {
  assert.equal(stdlib.call('fn_append', [1n, 2n], [3n, 4n]), { value: [1n, 2n, 3n, 4n] });
  assert.equal(stdlib.call('fn_append', [], []), { value: [] });
  assert.equal(stdlib.call('fn_append', ['a'], [[1n], null, 'b', 'c', 'd']), {
    value: ['a', [1n], null, 'b', 'c', 'd'],
  });
});

test('the arguments are left unchanged and the items taken from them become shared', () => {
  const { args, result } = callOnAddresses(stdlib, 'fn_append', [{ a: 1n }], [[2n]]);
  assert.equal(stdlib.get(args[0]!), [{ a: 1n }]);
  assert.equal(stdlib.get(args[1]!), [[2n]]);
  assert.ok(arrayItems(stdlib, result).every((item) => isShared(stdlib, item)));
});

test("non-arrays fail with VRL's type error", () => {
  assert.equal(stdlib.call('fn_append', {}, []), { error: 'expected array, got object' });
  assert.equal(stdlib.call('fn_append', [], 'x'), { error: 'expected array, got string' });
});

test.run();
