import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PersistentMap } from '../../../compiler/types/persistent-map.js';

test('set returns a new map and leaves the original as it was', () => {
  let map = PersistentMap.empty<string, number>();
  for (let i = 0; i < 5000; i++) map = map.set(`f${i}`, i);
  const changed = map.set('f7', -7).set('new', 1);
  assert.is(map.size, 5000);
  assert.is(changed.size, 5001);
  assert.is(map.get('f7'), 7);
  assert.is(changed.get('f7'), -7);
  assert.is(map.has('new'), false);
  assert.is(map.set('f9', 9), map, 'setting the same value changes nothing');
  const entries = new Map(map);
  assert.is(entries.size, 5000);
  for (let i = 0; i < 5000; i++) assert.is(entries.get(`f${i}`), i);
});

test('number keys', () => {
  let map = PersistentMap.empty<number, string>();
  for (let i = 0; i < 3000; i++) map = map.set(i, String(i));
  assert.is(map.size, 3000);
  assert.equal(
    [...map.keys()].sort((a, b) => a - b),
    Array.from({ length: 3000 }, (_, i) => i),
  );
  assert.is(map.get(2999), '2999');
  assert.is(map.get(3000), undefined);
});

test('differences visits only the keys whose entries two versions do not share', () => {
  let base = PersistentMap.empty<string, number>();
  for (let i = 0; i < 2000; i++) base = base.set(`f${i}`, i);
  const mine = base.set('f5', 50).set('only-mine', 1);
  const theirs = base.set('only-theirs', 2).set('f6', 60);
  const seen: Array<[string, number | undefined, number | undefined]> = [];
  mine.differences(theirs, (key, a, b) => seen.push([key, a, b]));
  assert.equal(
    seen.sort(([a], [b]) => a.localeCompare(b)),
    [
      ['f5', 50, 5],
      ['f6', 6, 60],
      ['only-mine', 1, undefined],
      ['only-theirs', undefined, 2],
    ],
  );
});

test.run();
