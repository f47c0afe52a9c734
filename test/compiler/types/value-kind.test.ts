import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Regex, Timestamp } from '../../../abi/values.js';
import {
  BOOLEAN,
  BYTES,
  FLOAT,
  INTEGER,
  NULL,
  REGEX,
  TIMESTAMP,
  exactArray,
  exactObject,
} from '../../../compiler/types/kind.js';
import { kindOfValue } from '../../../compiler/types/value-kind.js';

test('kindOfValue gives the exact kind of scalars', () => {
  assert.equal(kindOfValue(null), NULL);
  assert.equal(kindOfValue(true), BOOLEAN);
  assert.equal(kindOfValue(1n), INTEGER);
  assert.equal(kindOfValue(1.5), FLOAT);
  assert.equal(kindOfValue('a'), BYTES);
  assert.equal(kindOfValue(new Uint8Array([0xff])), BYTES);
  assert.equal(kindOfValue(new Timestamp(0n)), TIMESTAMP);
  assert.equal(kindOfValue(new Regex('a+')), REGEX);
});

test('kindOfValue knows every element of arrays and objects', () => {
  assert.equal(kindOfValue([1n, 'a']), exactArray([INTEGER, BYTES]));
  assert.equal(kindOfValue({ a: { b: null }, c: [] }), exactObject({ a: exactObject({ b: NULL }), c: exactArray([]) }));
});

test.run();
