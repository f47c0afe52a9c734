import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';
import { arrayItems, callOnAddresses, isShared } from './support/calls.js';

const stdlib = new Stdlib();
/** Arguments in parameter order: value, recursive, null, string, object, array, nullish. */
const compact = (
  value: unknown,
  options: {
    recursive?: boolean;
    null?: boolean;
    string?: boolean;
    object?: boolean;
    array?: boolean;
    nullish?: boolean;
  } = {},
) =>
  stdlib.call(
    'fn_compact',
    value,
    options.recursive,
    options.null,
    options.string,
    options.object,
    options.array,
    options.nullish,
  );
const complex = { a: {}, b: null, c: [null], d: '', e: '-', f: true };

test('by default null, empty strings, arrays and objects go, recursively', () => {
  assert.equal(compact({ field1: 1n, field2: '', field3: [], field4: null }), { value: { field1: 1n } });
  assert.equal(compact(['foo', 'bar', '', null, [], 'buzz']), { value: ['foo', 'bar', 'buzz'] });
  assert.equal(compact(complex), { value: { e: '-', f: true } });
  assert.equal(compact({ a: { b: { c: null } }, d: [[], ['']] }), { value: {} });
  assert.equal(compact([[{ a: [null] }], 1n]), { value: [1n] });
});

test('each option keeps its kind of empty value', () => {
  assert.equal(compact(complex, { null: false }), { value: { b: null, c: [null], e: '-', f: true } });
  assert.equal(compact([{}, [], ''], { object: false }), { value: [{}] });
  assert.equal(compact([{}, [], ''], { array: false }), { value: [[]] });
  assert.equal(compact([{}, [], ''], { string: false }), { value: [''] });
  assert.equal(compact({ a: { b: { c: null } }, d: [[], ['']] }, { recursive: false }), {
    value: { a: { b: { c: null } }, d: [[], ['']] },
  });
  assert.equal(compact([[{}]], { recursive: false }), { value: [[{}]] });
});

test('nullish also removes "-" and whitespace-only strings, whatever the other options', () => {
  assert.equal(compact(['-', '   ', '\n', null, true], { nullish: true }), { value: [true] });
  assert.equal(compact([{ a: '' }, ['-'], '  '], { nullish: true, string: false }), { value: [] });
  assert.equal(compact(['', '-', null], { nullish: true, null: false, string: false }), { value: [] });
});

test('the argument is left unchanged and values taken from it become shared', () => {
  const { args, result } = callOnAddresses(stdlib, 'fn_compact', [[1n], null, { a: [2n] }], false);
  assert.equal(stdlib.get(args[0]!), [[1n], null, { a: [2n] }]);
  assert.equal(stdlib.get(result), [[1n], { a: [2n] }]);
  assert.ok(arrayItems(stdlib, result).every((item) => isShared(stdlib, item)));
});

test("wrong kinds fail with VRL's type error", () => {
  assert.equal(compact('x'), { error: 'expected array or object, got string' });
  assert.equal(stdlib.call('fn_compact', [], 1n), { error: 'expected boolean, got integer' });
  assert.equal(stdlib.call('fn_compact', [], true, true, true, true, true, 'no'), {
    error: 'expected boolean, got string',
  });
});

test.run();
