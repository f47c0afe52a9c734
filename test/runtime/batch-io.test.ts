import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatchReader, withField, withoutField } from '../../runtime/batch-io.js';
import { encodeBatch } from '../../abi/batch.js';
import { decode, encode, IntegralFloat } from '../../abi/codec.js';

test('withField inserts in key order, replaces, creates objects on the way, and copies the rest as bytes', () => {
  const event = encode({ b: 1, d: { x: new IntegralFloat(2) } });
  assert.equal(decode(withField(event, ['c'], encode('v'))), { b: 1n, c: 'v', d: { x: 2 } });
  assert.equal(decode(withField(event, ['b'], encode(null))), { b: null, d: { x: 2 } });
  assert.equal(decode(withField(event, ['d', 'y', 'z'], encode(true))), { b: 1n, d: { x: 2, y: { z: true } } });
  assert.equal(decode(withField(event, ['b', 'q'], encode(1))), { b: { q: 1n }, d: { x: 2 } });
  // The float stays a float: nothing else is decoded and encoded again.
  assert.equal([...withField(event, ['a'], encode(0))].slice(-9), [...encode(new IntegralFloat(2))]);
});

test('withoutField removes a nested field and leaves a value without it unchanged', () => {
  const event = encode({ a: 1, m: { s: 1, h: 'x' } });
  assert.equal(decode(withoutField(event, ['m', 's'])), { a: 1n, m: { h: 'x' } });
  assert.equal(decode(withoutField(event, ['a'])), { m: { s: 1n, h: 'x' } });
  assert.is(withoutField(event, ['zz']), event);
});

test('readPathEncoded returns the exact encoding of the value found', () => {
  const reader = new BatchReader(encodeBatch([{ event: { a: [1, { b: 'x' }] } }], 0));
  const [record] = [...reader];
  assert.equal([...reader.readPathEncoded(record!.event, ['a', 1, 'b'])!], [...encode('x')]);
  assert.is(reader.readPathEncoded(record!.event, ['a', 5]), undefined);
});

test.run();
