import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { callOnAddresses, isShared, objectValues } from './support/calls.js';

const stdlib = new Stdlib();

test('nested arrays are spliced into one array; objects inside stay', () => {
  assert.equal(stdlib.call('fn_flatten', [1n, [2n, 3n, 4n], [5n, [6n, 7n], 8n], 9n]), {
    value: [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n],
  });
  assert.equal(stdlib.call('fn_flatten', [1n, [{ a: { b: 1n } }], []]), { value: [1n, { a: { b: 1n } }] });
});

test('nested objects become one object keyed by joined paths', () => {
  assert.equal(stdlib.call('fn_flatten', { parent1: { child1: 1n, child2: 2n }, parent2: { child3: 3n } }), {
    value: { 'parent1.child1': 1n, 'parent1.child2': 2n, 'parent2.child3': 3n },
  });
  assert.equal(stdlib.call('fn_flatten', { a: { b: [1n, { c: 2n }] }, d: {}, e: { f: {} } }), {
    value: { 'a.b': [1n, { c: 2n }] },
  });
  assert.equal(stdlib.call('fn_flatten', { '': { a: { '': 1n } } }), { value: { '.a.': 1n } });
});

test('a path met later in key order wins over an equal key', () => {
  assert.equal(stdlib.call('fn_flatten', { a: { b: 1n }, 'a.b': 2n }), { value: { 'a.b': 2n } });
});

test('the separator joins the keys', () => {
  assert.equal(stdlib.call('fn_flatten', { foo: { bar: true } }, '_'), { value: { foo_bar: true } });
  assert.equal(stdlib.call('fn_flatten', { a: { b: { c: 1n } } }, ''), { value: { abc: 1n } });
  assert.equal(stdlib.call('fn_flatten', { a: { b: { c: 1n } } }, '::'), { value: { 'a::b::c': 1n } });
});

test('fields listed in except keep their object', () => {
  assert.equal(stdlib.call('fn_flatten', { parent: { child: 1n }, keep: { nested: 2n } }, undefined, ['keep']), {
    value: { keep: { nested: 2n }, 'parent.child': 1n },
  });
  assert.equal(stdlib.call('fn_flatten', { a: { keep: { x: 1n }, y: 2n } }, undefined, ['keep', 3n]), {
    value: { 'a.keep': { x: 1n }, 'a.y': 2n },
  });
});

test('the argument is left unchanged and values taken from it become shared', () => {
  const { args, result } = callOnAddresses(stdlib, 'fn_flatten', { a: { b: [1n] }, c: [2n] });
  assert.equal(stdlib.get(args[0]!), { a: { b: [1n] }, c: [2n] });
  assert.ok(objectValues(stdlib, result).every((v) => isShared(stdlib, v)));
});

test("wrong kinds fail with VRL's type error", () => {
  assert.equal(stdlib.call('fn_flatten', 1n), { error: 'expected array or object, got integer' });
  assert.equal(stdlib.call('fn_flatten', {}, 1n), { error: 'expected string, got integer' });
  assert.equal(stdlib.call('fn_flatten', {}, '.', 'a'), { error: 'expected array, got string' });
});

test.run();
