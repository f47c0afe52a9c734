import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { def, arg, str, int, flag, call, fallible, returns } from './calls.js';
import {
  ANY,
  BOOLEAN,
  BYTES,
  FLOAT,
  INTEGER,
  NULL,
  arrayOf,
  describe,
  exactArray,
  exactObject,
  fieldOf,
  indexOf,
  objectOf,
  union,
} from '../../../compiler/types/kind.js';

test('type assertions are infallible only on values already of their kind, and narrow to it', () => {
  assert.not.ok(fallible('array', call({ value: arg(arrayOf(INTEGER)) })));
  assert.ok(fallible('array', call({ value: arg(ANY) })));
  assert.ok(fallible('int', call({ value: arg(union(INTEGER, BYTES)) })));
  assert.not.ok(fallible('bool', call({ value: arg(BOOLEAN) })));
  assert.is(describe(returns('int', call({ value: arg(union(INTEGER, BYTES)) }))), 'integer');
  assert.is(describe(indexOf(returns('array', call({ value: arg(union(exactArray([BYTES]), NULL)) })), 0)), 'string');
  assert.is(describe(returns('object', call({ value: arg(BYTES) }))), 'object');
});

test('chunks is infallible with a literal size and rejects a literal below one', () => {
  assert.not.ok(fallible('chunks', call({ value: arg(BYTES), chunk_size: int(4n) })));
  assert.ok(fallible('chunks', call({ value: arg(BYTES), chunk_size: arg(INTEGER) })));
  assert.is(def('chunks').validate!(call({ value: arg(BYTES), chunk_size: int(4n) })), undefined);
  assert.equal(def('chunks').validate!(call({ value: arg(BYTES), chunk_size: int(0n) })), {
    code: 403,
    message: 'invalid argument',
    labels: ['invalid argument "chunk_size"', 'received: 0', 'error: "chunk_size" must be at least 1 byte'],
  });
});

test('crc and hmac are infallible with no algorithm or a known literal one', () => {
  for (const name of ['crc', 'hmac']) {
    assert.not.ok(fallible(name, call({ value: arg(BYTES), key: arg(BYTES) })), name);
    assert.ok(fallible(name, call({ value: arg(BYTES), key: arg(BYTES), algorithm: str('bogus') })), name);
    assert.ok(fallible(name, call({ value: arg(BYTES), key: arg(BYTES), algorithm: arg(BYTES) })), name);
  }
  assert.not.ok(fallible('crc', call({ value: arg(BYTES), algorithm: str('CRC_32_CKSUM') })));
  assert.not.ok(fallible('hmac', call({ value: arg(BYTES), key: arg(BYTES), algorithm: str('SHA1') })));
  assert.is(def('hmac').parameters[2]!.literal, false);
});

test('mod is infallible by a literal non-zero modulus and keeps integer arithmetic', () => {
  assert.not.ok(fallible('mod', call({ value: int(5n), modulus: int(2n) })));
  assert.ok(fallible('mod', call({ value: int(5n), modulus: int(0n) })));
  assert.ok(fallible('mod', call({ value: int(5n), modulus: arg(INTEGER) })));
  assert.not.ok(fallible('mod', call({ value: int(5n), modulus: arg(FLOAT, { kind: 'float', value: 2 }) })));
  assert.is(describe(returns('mod', call({ value: int(5n), modulus: int(2n) }))), 'integer');
  assert.is(describe(returns('mod', call({ value: arg(FLOAT), modulus: int(2n) }))), 'float');
  assert.is(
    describe(returns('mod', call({ value: arg(union(INTEGER, FLOAT)), modulus: int(2n) }))),
    'integer or float',
  );
});

test('functions checking collection items at run time are fallible only when the items may be wrong', () => {
  assert.not.ok(fallible('contains_all', call({ value: arg(BYTES), substrings: arg(arrayOf(BYTES)) })));
  assert.not.ok(fallible('contains_all', call({ value: arg(BYTES), substrings: arg(exactArray([])) })));
  assert.ok(fallible('contains_all', call({ value: arg(BYTES), substrings: arg(exactArray([INTEGER])) })));
  assert.not.ok(fallible('object_from_array', call({ values: arg(arrayOf(arrayOf(ANY))) })));
  assert.ok(fallible('object_from_array', call({ values: arg(arrayOf(INTEGER)) })));
  assert.not.ok(
    fallible('object_from_array', call({ values: arg(arrayOf(INTEGER)), keys: arg(arrayOf(union(BYTES, NULL))) })),
  );
  assert.ok(fallible('encode_key_value', call({ value: arg(objectOf(ANY)), fields_ordering: arg(arrayOf(BYTES)) })));
  assert.not.ok(fallible('encode_key_value', call({ value: arg(objectOf(ANY)) })));
});

test('numeric rounding keeps an exact integer or float kind', () => {
  assert.is(describe(returns('abs', call({ value: arg(INTEGER) }))), 'integer');
  assert.is(describe(returns('ceil', call({ value: arg(FLOAT) }))), 'float');
  assert.is(describe(returns('floor', call({ value: arg(ANY) }))), 'integer or float');
});

test('append, merge and map functions reshape known collection contents', () => {
  const appended = returns('append', call({ value: arg(exactArray([INTEGER])), items: arg(exactArray([BYTES])) }));
  assert.is(describe(indexOf(appended, 1)), 'string');
  assert.is(describe(indexOf(appended, 2)), 'undefined');

  const to = arg(exactObject({ a: INTEGER, n: exactObject({ x: INTEGER }) }));
  const from = arg(exactObject({ b: BYTES, n: exactObject({ y: BYTES }) }));
  const shallow = returns('merge', call({ to, from }));
  assert.is(describe(fieldOf(shallow, 'a')), 'integer');
  assert.is(describe(fieldOf(shallow, 'b')), 'string');
  assert.is(describe(fieldOf(fieldOf(shallow, 'n'), 'x')), 'undefined');
  const deep = returns('merge', call({ to, from, deep: flag(true) }));
  assert.is(describe(fieldOf(fieldOf(deep, 'n'), 'x')), 'integer or undefined');

  const mapped = returns('map_values', call({ value: arg(exactObject({ a: INTEGER })) }, BYTES));
  assert.is(describe(fieldOf(mapped, 'a')), 'string');
  const renamed = returns('map_keys', call({ value: arg(exactObject({ a: INTEGER })) }));
  assert.is(describe(fieldOf(renamed, 'zzz')), 'integer');
  assert.is(describe(returns('filter', call({ value: arg(exactArray([INTEGER])) }))), 'array');
});

test('closures receive key or index and value kinds of the collection', () => {
  const closure = def('for_each').closure!;
  assert.equal(closure.variables(call({ value: arg(arrayOf(BYTES)) })).map(describe), ['integer', 'string']);
  assert.equal(closure.variables(call({ value: arg(objectOf(INTEGER)) })).map(describe), ['string', 'integer']);
  assert.is(describe(def('filter').closure!.returns), 'boolean');
  assert.equal(
    def('map_keys')
      .closure!.variables(call({ value: arg(objectOf(INTEGER)) }))
      .map(describe),
    ['string'],
  );
});

test.run();
