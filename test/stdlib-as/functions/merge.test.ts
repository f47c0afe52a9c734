import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { callOnAddresses, isShared, objectValues } from './support/calls.js';

const stdlib = new Stdlib();
const to = { parent1: { child1: 1n, child2: 2n }, parent2: { child3: 3n } };
const from = { parent1: { child2: 4n, child5: 5n } };

test('a shallow merge replaces fields of `to` by those of `from`', () => {
  const merged = { parent1: { child2: 4n, child5: 5n }, parent2: { child3: 3n } };
  assert.equal(stdlib.call('fn_merge', to, from), { value: merged });
  assert.equal(stdlib.call('fn_merge', to, from, false), { value: merged });
  assert.equal(stdlib.call('fn_merge', {}, { b: 1n, a: 2n }), { value: { a: 2n, b: 1n } });
});

test('a deep merge merges objects present on both sides, at every level', () => {
  assert.equal(stdlib.call('fn_merge', to, from, true), {
    value: { parent1: { child1: 1n, child2: 4n, child5: 5n }, parent2: { child3: 3n } },
  });
  assert.equal(stdlib.call('fn_merge', { a: { b: 1n, c: { d: 1n } } }, { a: { c: { e: 2n }, b: { x: 1n } } }, true), {
    value: { a: { b: { x: 1n }, c: { d: 1n, e: 2n } } },
  });
  assert.equal(stdlib.call('fn_merge', { a: 1n }, { a: { x: 1n } }, true), { value: { a: { x: 1n } } });
  assert.equal(stdlib.call('fn_merge', { a: { x: 1n } }, { a: 2n }, true), { value: { a: 2n } });
});

test('the arguments are left unchanged and the values taken from them become shared', () => {
  const { args, result } = callOnAddresses(stdlib, 'fn_merge', { a: { x: [1n] }, b: [2n] }, { a: { y: [3n] } }, true);
  assert.equal(stdlib.get(args[0]!), { a: { x: [1n] }, b: [2n] });
  assert.equal(stdlib.get(args[1]!), { a: { y: [3n] } });
  const [a, b] = objectValues(stdlib, result);
  assert.ok(isShared(stdlib, b!));
  assert.ok(objectValues(stdlib, a!).every((v) => isShared(stdlib, v)));
});

test("non-objects fail with VRL's type error", () => {
  assert.equal(stdlib.call('fn_merge', 1n, {}), { error: 'expected object, got integer' });
  assert.equal(stdlib.call('fn_merge', {}, []), { error: 'expected object, got array' });
  assert.equal(stdlib.call('fn_merge', {}, {}, 'yes'), { error: 'expected boolean, got string' });
});

test.run();
