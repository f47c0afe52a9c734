import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib, type PathSegment } from '../support/stdlib.js';

const s = new Stdlib();
const x = s.exports;

const get = (root: unknown, ...path: PathSegment[]) => s.get(x.path_get!(s.put(root), s.path(...path)));
const exists = (root: unknown, ...path: PathSegment[]) => x.path_exists!(s.put(root), s.path(...path)) === 1;

/** The root after `path = value` (VRL's assignment). */
function set(root: unknown, path: PathSegment[], value: unknown) {
  const cell = s.cell(root);
  x.path_set!(cell, s.path(...path), s.put(value));
  return s.cellValue(cell);
}

/** `[root after, removed value]` of `del(path, compact)`. */
function remove(root: unknown, path: PathSegment[], compact = false) {
  const cell = s.cell(root);
  const removed = x.path_remove!(cell, s.path(...path), compact ? 1 : 0);
  return [s.cellValue(cell), s.get(removed)];
}

const cellAddress = (cell: number) => new DataView(x.memory.buffer).getUint32(cell, true);

test('path_get: fields, indexes from either end, missing paths read as null', () => {
  const root = { a: { b: [1n, 2n] }, s: 'x' };
  assert.equal(get(root), root);
  assert.equal(get(root, 'a', 'b', 0), 1n);
  assert.equal(get(root, 'a', 'b', -1), 2n);
  assert.equal(get(root, 'a', 'b', -2), 1n);
  assert.equal(get(root, 'a', 'b', -3), null);
  assert.equal(get(root, 'a', 'b', 2), null);
  assert.equal(get(root, 'a', 'x'), null);
  assert.equal(get(root, 's', 'y'), null);
  assert.equal(get(root, 's', 0), null);
  assert.equal(get({ a: { '0': 1n } }, 'a', 0), null);
  assert.equal(get([{ 'é x': true }], 0, 'é x'), true);
});

test('path_get: coalesced fields take the first that exists, even when null', () => {
  assert.equal(get({ a: null, b: 1n }, ['a', 'b']), null);
  assert.equal(get({ b: 1n }, ['a', 'b']), 1n);
  assert.equal(get({}, ['a', 'b']), null);
  assert.equal(get({ a: 1n, b: { c: 2n } }, ['a', 'b'], 'c'), null);
  assert.equal(get({ b: { c: 2n } }, ['a', 'b'], 'c'), 2n);
  assert.equal(get('s', ['a', 'b']), null);
});

test('path_exists', () => {
  assert.ok(exists({}));
  assert.ok(exists({ a: { b: null } }, 'a', 'b'));
  assert.not.ok(exists({ a: {} }, 'a', 'b'));
  assert.ok(exists({ a: [1n] }, 'a', -1));
  assert.not.ok(exists({ a: [1n] }, 'a', -2));
  assert.not.ok(exists({ a: 's' }, 'a', 0));
  assert.ok(exists({ b: 1n }, ['a', 'b']));
  assert.ok(exists({ a: null }, ['a', 'b']));
  assert.not.ok(exists({ c: 1n }, ['a', 'b']));
});

test('path_set: creates objects and arrays, pads with nulls, replaces non-containers', () => {
  assert.equal(set({}, ['a', 2], 5n), { a: [null, null, 5n] });
  assert.equal(set({ a: [1n] }, ['a', 2], 5n), { a: [1n, null, 5n] });
  assert.equal(set({ a: 'x' }, ['a', 2], 5n), { a: [null, null, 5n] });
  assert.equal(set({ a: { x: 1n } }, ['a', 2, 'b'], 5n), { a: [null, null, { b: 5n }] });
  assert.equal(set({ a: [1n] }, ['a', 'b'], 5n), { a: { b: 5n } });
  assert.equal(set({ a: 's' }, ['a', 'b'], 5n), { a: { b: 5n } });
  assert.equal(set({ a: { b: { x: 1n } } }, ['a', 'b', 1, 'c'], 5n), { a: { b: [null, { c: 5n }] } });
  assert.equal(set({ a: { '1': 3n } }, ['a', 1], 7n), { a: [null, 7n] });
  assert.equal(set({ a: 1n, c: 2n }, ['b'], 'x'), { a: 1n, b: 'x', c: 2n });
  assert.equal(set({ a: 1n }, [], 5n), 5n);
  assert.equal(set(5n, ['a'], 1n), { a: 1n });
});

test('path_set: negative indexes count from the end and prepend before the start, as VRL does', () => {
  assert.equal(set({}, ['a', -1], 5n), { a: [5n] });
  assert.equal(set({ a: [] }, ['a', -1], 5n), { a: [5n] });
  assert.equal(set({ a: [1n] }, ['a', -1], 5n), { a: [5n] });
  assert.equal(set({ a: [1n, 2n] }, ['a', -1], 5n), { a: [1n, 5n] });
  assert.equal(set({ a: [1n] }, ['a', -2], 5n), { a: [5n, 1n] });
  assert.equal(set({ a: [1n] }, ['a', -3], 5n), { a: [5n, null, 1n] });
  assert.equal(set({ a: [1n, 2n, 3n] }, ['a', -3], 5n), { a: [5n, 2n, 3n] });
  assert.equal(set({ a: [1n, 2n, 3n] }, ['a', -4], 5n), { a: [5n, 1n, 2n, 3n] });
  assert.equal(set({ a: [] }, ['a', -1, 'b'], 5n), { a: [{ b: 5n }] });
  assert.equal(set({ a: [] }, ['a', -1, -1], 5n), { a: [[5n]] });
});

test('path_set: coalesced fields write the first that exists, else the last', () => {
  assert.equal(set({}, [['a', 'b']], 5n), { b: 5n });
  assert.equal(set({ b: 1n }, [['a', 'b']], 5n), { b: 5n });
  assert.equal(set({ a: null, b: 1n }, [['a', 'b']], 5n), { a: 5n, b: 1n });
  assert.equal(set({ x: { b: 1n } }, ['x', ['a', 'b'], 'y'], 5n), { x: { b: { y: 5n } } });
  assert.equal(set({ x: 's' }, ['x', ['a', 'b', 'c']], 5n), { x: { c: 5n } });
});

test('path_set writes in place into containers nobody else holds', () => {
  const cell = s.cell({ a: { b: 1n } });
  const root = cellAddress(cell);
  const inner = x.path_get!(root, s.path('a'));
  x.path_set!(cell, s.path('c'), s.put(2n));
  assert.is(cellAddress(cell), root);
  assert.equal(s.cellValue(cell), { a: { b: 1n }, c: 2n });
  assert.equal(s.get(inner), { b: 1n });
});

test('path_set copies shared containers on the way down and leaves the other holders as they were', () => {
  const event = s.cell({ a: { b: [1n, { c: 1n }] }, d: 1n });
  const variable = s.cell(null);
  // `v = .`: the root is now held by both cells.
  x.path_set!(variable, s.path(), x.path_get!(cellAddress(event), s.path()));
  // `w = .a.b`: a nested container held by the event and by w.
  const w = x.path_get!(cellAddress(event), s.path('a', 'b'));
  x.path_set!(event, s.path('a', 'b', 1, 'c'), s.put(2n));
  x.path_set!(event, s.path('d'), s.put(2n));
  assert.equal(s.cellValue(event), { a: { b: [1n, { c: 2n }] }, d: 2n });
  assert.equal(s.cellValue(variable), { a: { b: [1n, { c: 1n }] }, d: 1n });
  assert.equal(s.get(w), [1n, { c: 1n }]);
  // Writing through the variable leaves the event alone too.
  x.path_set!(variable, s.path('a', 'b', 0), s.put('v'));
  assert.equal(s.cellValue(variable), { a: { b: ['v', { c: 1n }] }, d: 1n });
  assert.equal(s.cellValue(event), { a: { b: [1n, { c: 2n }] }, d: 2n });
});

test('path_set: a negative index before the start keeps shared items intact', () => {
  const event = s.cell({ a: [{ b: 1n }] });
  const v = x.path_get!(cellAddress(event), s.path('a'));
  x.path_set!(event, s.path('a', -2), s.put(0n));
  x.path_set!(event, s.path('a', 1, 'b'), s.put(2n));
  assert.equal(s.cellValue(event), { a: [0n, { b: 2n }] });
  assert.equal(s.get(v), [{ b: 1n }]);
});

test('path_remove: returns the removed value or null, shifts arrays', () => {
  assert.equal(remove({ a: { b: 1n } }, ['a', 'b']), [{ a: {} }, 1n]);
  assert.equal(remove({ a: [1n, 2n, 3n] }, ['a', -1]), [{ a: [1n, 2n] }, 3n]);
  assert.equal(remove({ a: [1n, 2n, 3n] }, ['a', -3]), [{ a: [2n, 3n] }, 1n]);
  assert.equal(remove({ a: [1n, 2n, 3n] }, ['a', 1]), [{ a: [1n, 3n] }, 2n]);
  assert.equal(remove({ a: [1n, 2n, 3n] }, ['a', -4]), [{ a: [1n, 2n, 3n] }, null]);
  assert.equal(remove({ a: [1n, 2n, 3n] }, ['a', 5]), [{ a: [1n, 2n, 3n] }, null]);
  assert.equal(remove({ a: 'x' }, ['a', 0]), [{ a: 'x' }, null]);
  assert.equal(remove({ a: [1n] }, ['a', 'b']), [{ a: [1n] }, null]);
  assert.equal(remove({ a: { b: null } }, ['a', 'b']), [{ a: {} }, null]);
});

test('path_remove of the root leaves an empty object', () => {
  assert.equal(remove({ a: [1n] }, []), [{}, { a: [1n] }]);
  assert.equal(remove({ a: [1n] }, [], true), [{}, { a: [1n] }]);
});

test('path_remove with compact removes the containers the removal emptied, up to the root', () => {
  assert.equal(remove({ a: { b: 1n } }, ['a', 'b'], true), [{}, 1n]);
  assert.equal(remove({ a: { b: { c: 1n } }, x: 1n }, ['a', 'b', 'c'], true), [{ x: 1n }, 1n]);
  assert.equal(remove({ a: { b: { c: 1n, d: null } } }, ['a', 'b', 'c'], true), [{ a: { b: { d: null } } }, 1n]);
  assert.equal(remove({ a: { b: { c: 1n }, e: [] } }, ['a', 'b', 'c'], true), [{ a: { e: [] } }, 1n]);
  assert.equal(remove({ a: [1n], x: 1n }, ['a', 0], true), [{ x: 1n }, 1n]);
  assert.equal(remove({ a: [{ b: 1n }, 2n] }, ['a', 0, 'b'], true), [{ a: [2n] }, 1n]);
  assert.equal(remove({ a: [1n, { b: 1n }] }, ['a', 1, 'b'], true), [{ a: [1n] }, 1n]);
  // Nothing removed: nothing compacted.
  assert.equal(remove({ a: {} }, ['a', 'b'], true), [{ a: {} }, null]);
});

test('path_remove: coalesced fields remove the first that exists', () => {
  assert.equal(remove({ b: 1n }, [['a', 'b']]), [{}, 1n]);
  assert.equal(remove({ a: null, b: 1n }, [['a', 'b']]), [{ b: 1n }, null]);
  assert.equal(remove({ c: 1n }, [['a', 'b']]), [{ c: 1n }, null]);
  assert.equal(remove({ x: { b: { c: 1n } } }, ['x', ['a', 'b'], 'c'], true), [{}, 1n]);
});

test('path_remove copies shared containers and leaves the other holders as they were', () => {
  const event = s.cell({ a: { b: [1n, 2n] } });
  const held = x.path_get!(cellAddress(event), s.path());
  const removed = x.path_remove!(event, s.path('a', 'b', 0), 0);
  assert.equal(s.get(removed), 1n);
  assert.equal(s.cellValue(event), { a: { b: [2n] } });
  assert.equal(s.get(held), { a: { b: [1n, 2n] } });
});

test.run();
