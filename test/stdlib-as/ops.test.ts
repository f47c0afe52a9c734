import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../support/stdlib.js';
import { Regex, Timestamp } from '../../abi/values.js';

const s = new Stdlib();
const x = s.exports;

/** A float operand even when integral (the codec would make `2` an integer). */
class F {
  constructor(readonly n: number) {}
}
const arg = (v: unknown) => (v instanceof F ? x.new_float!(v.n) : s.put(v));

function op(name: string, a: unknown, b?: unknown) {
  const result = b === undefined ? x[name]!(arg(a)) : x[name]!(arg(a), arg(b));
  return result === 0 ? { error: s.error() } : { value: s.get(result) };
}
const ok = (name: string, a: unknown, b: unknown, expected: unknown) =>
  assert.equal(op(name, a, b), { value: expected }, `${name}(${String(a)}, ${String(b)})`);
const err = (name: string, a: unknown, b: unknown, message: string) =>
  assert.equal(op(name, a, b), { error: message }, `${name}(${String(a)}, ${String(b)})`);

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;
const ts = (iso: string) => Timestamp.fromDate(new Date(iso));

test('+ adds numbers (integers wrap), concatenates strings, and lets null join a string', () => {
  ok('op_add', 1n, 2n, 3n);
  ok('op_add', MAX, 1n, MIN);
  ok('op_add', 1n, 2.5, 3.5);
  ok('op_add', 1.5, 2n, 3.5);
  ok('op_add', new F(1), 2n, 3);
  ok('op_add', 'ab', 'cd', 'abcd');
  ok('op_add', 'é', '', 'é');
  ok('op_add', 's', null, 's');
  ok('op_add', null, 's', 's');
  err('op_add', null, null, "can't add type null to null");
  err('op_add', 's', 1n, "can't add type integer to string");
  err('op_add', true, false, "can't add type boolean to boolean");
  err('op_add', new Regex('a'), false, "can't add type boolean to regex");
  err('op_add', ts('2020-01-01T00:00:00Z'), false, "can't add type boolean to timestamp");
  err('op_add', { a: 1n }, { b: 2n }, "can't add type { b: integer } to { a: integer }");
  err('op_add', [1n], [2n], "can't add type [integer] to [integer]");
});

test('error messages print the kinds of the values, as VRL does', () => {
  err(
    'op_add',
    [1n, 'a', [null, true], { b: { c: 1.5 } }],
    { a: [], b: {}, c: null, d: [[1n]] },
    "can't add type { a: array, b: object, c: null, d: [[integer]] } to [integer, string, [null, boolean], { b: { c: float } }]",
  );
  err(
    'op_add',
    { 'a b': 1n, é: 2n, '': 3n, '1': 4n, _x: 5n, A: 6n },
    1n,
    `can't add type integer to { "": integer, "1": integer, A: integer, _x: integer, "a b": integer, "é": integer }`,
  );
  err(
    'op_add',
    { a1: 1n, '1a': 2n, 'a-b': 3n, 'a@': 4n, 'a"b': 5n, 'a.b': 6n, 'a\\b': 7n, Ab_9: 8n, 'a\nb': 9n },
    1n,
    `can't add type integer to { 1a: integer, Ab_9: integer, "a\nb": integer, "a"b": integer, "a-b": integer, "a.b": integer, a1: integer, a@: integer, "a\\b": integer }`,
  );
  err(
    'op_add',
    { x: { y: { z: [{ k: [[['a']]] }] } } },
    1n,
    "can't add type integer to { x: { y: { z: [{ k: [[[string]]] }] } } }",
  );
});

test('- and * on numbers; * repeats a string an integer number of times', () => {
  ok('op_sub', 3n, 2.5, 0.5);
  ok('op_sub', MIN, 1n, MAX);
  ok('op_sub', 2.5, new F(0.5), 2);
  err('op_sub', 's', 1n, "can't subtract type integer from string");
  err('op_sub', 1n, 's', "can't subtract type string from integer");
  err('op_sub', null, 1n, "can't subtract type integer from null");
  ok('op_mul', 3n, 2.5, 7.5);
  ok('op_mul', MAX, 2n, -2n);
  ok('op_mul', 'ab', 3n, 'ababab');
  ok('op_mul', 3n, 'ab', 'ababab');
  ok('op_mul', 'ab', 0n, '');
  ok('op_mul', 'ab', -1n, '');
  err('op_mul', 'ab', 2.5, "can't multiply type string by float");
  err('op_mul', 2.5, 'ab', "can't multiply type float by string");
  err('op_mul', 'ab', 'c', "can't multiply type string by string");
  err('op_mul', [1n], 2n, "can't multiply type [integer] by integer");
  err('op_mul', null, null, "can't multiply type null by null");
});

test('float results: infinities stay, NaN is an error (VRL 0.35)', () => {
  ok('op_mul', 1e308, 10n, Infinity);
  ok('op_add', new F(Infinity), -1e308, Infinity);
  const nan = 'operation would produce NaN';
  err('op_sub', new F(Infinity), new F(Infinity), nan);
  err('op_add', new F(Infinity), new F(-Infinity), nan);
  err('op_mul', new F(Infinity), 0n, nan);
  err('op_div', new F(Infinity), new F(Infinity), nan);
  err('op_rem', new F(Infinity), 2n, nan);
  ok('op_rem', 5.5, new F(Infinity), 5.5);
});

test('/ always gives a float; division by zero is checked before the left side', () => {
  ok('op_div', 7n, 2n, 3.5);
  ok('op_div', 1n, 3n, 1 / 3);
  ok('op_div', 4n, 2n, 2);
  assert.is(x.value_tag!(x.op_div!(arg(4n), arg(2n))), 3, 'a float');
  ok('op_div', MIN, -1n, 9223372036854775808);
  err('op_div', 1n, 0n, "can't divide by zero");
  err('op_div', 2n, new F(0), "can't divide by zero");
  err('op_div', 2.5, new F(-0), "can't divide by zero");
  err('op_div', 's', 0n, "can't divide by zero");
  err('op_div', 's', 2n, "can't divide type string by integer");
  err('op_div', 2n, 's', "can't divide type integer by string");
  err('op_div', 1n, null, "can't divide type integer by null");
});

test('% keeps integers integral, gives floats otherwise, and refuses zero', () => {
  ok('op_rem', 7n, 2n, 1n);
  ok('op_rem', -7n, 2n, -1n);
  ok('op_rem', MIN, -1n, 0n);
  ok('op_rem', 7.5, 2n, 1.5);
  ok('op_rem', 7n, 2.5, 2);
  assert.is(x.value_tag!(x.op_rem!(arg(7n), arg(2.5))), 3, 'a float');
  ok('op_rem', -7.5, 2n, -1.5);
  err('op_rem', 1n, 0n, "can't divide by zero");
  err('op_rem', 1.5, new F(0), "can't divide by zero");
  err('op_rem', 's', 0n, "can't divide by zero");
  err('op_rem', 's', 2n, "can't calculate remainder of type string and integer");
  err('op_rem', 2n, 's', "can't calculate remainder of type integer and string");
});

test('comparisons: numbers of either kind, strings byte-wise, timestamps', () => {
  ok('op_lt', 1n, 2n, true);
  ok('op_lt', 1n, 1.5, true);
  ok('op_le', 2n, new F(2), true);
  ok('op_ge', 3n, 2.5, true);
  ok('op_gt', 2.5, 2n, true);
  ok('op_gt', MAX, MAX - 1n, true);
  ok('op_lt', 'B', 'a', true);
  ok('op_lt', 'ab', 'abc', true);
  ok('op_lt', 'é', 'z', false);
  ok('op_ge', 'a', 'a', true);
  ok('op_lt', ts('2020-01-01T00:00:00Z'), ts('2021-01-01T00:00:00Z'), true);
  ok('op_ge', new Timestamp(5n), new Timestamp(6n), false);
});

test("comparison errors are VRL's, including its wording slips for < <= > >=", () => {
  err('op_lt', 's', 2n, 'expected string, got integer');
  err('op_gt', 's', [1n], 'expected string, got [integer]');
  err('op_le', ts('2020-01-01T00:00:00Z'), '2020', 'expected timestamp, got string');
  err('op_lt', true, false, "can't compare boolean >= boolean");
  err('op_le', true, false, "can't compare boolean >= boolean");
  err('op_ge', null, null, "can't compare null >= null");
  err('op_gt', true, false, "can't calculate remainder of type boolean and boolean");
  err('op_gt', null, 1n, "can't calculate remainder of type null and integer");
  err('op_lt', 1n, 's', "can't compare integer >= string");
  err('op_le', 1.5, 's', "can't compare float >= string");
  err('op_lt', [1n], { c: 1n }, "can't compare [integer] >= { c: integer }");
});

test('== compares an integer and a float as numbers at the top level only; != is its negation', () => {
  ok('op_eq', 1n, new F(1), true);
  ok('op_ne', 1n, new F(1), false);
  ok('op_eq', 'a', 'a', true);
  ok('op_eq', '1', 1n, false);
  ok('op_eq', null, null, true);
  ok('op_ne', null, null, false);
  ok('op_eq', 0, new F(-0), true);
  ok('op_eq', { x: 1n, y: [true, { z: 'é' }] }, { y: [true, { z: 'é' }], x: 1n }, true);
  ok('op_eq', { x: 1n }, { x: 1n, y: null }, false);
  ok('op_eq', new Regex('a'), new Regex('a'), true);
  ok('op_eq', new Regex('a'), 'a', false);
  ok('op_eq', new Timestamp(1n), new Timestamp(1n), true);
  ok('op_eq', new Uint8Array([0xff]), new Uint8Array([0xfe]), false);
});

test('value_eq is strict: kinds must match, also inside collections (and so is == there)', () => {
  const eq = (a: unknown, b: unknown) => x.value_eq!(arg(a), arg(b)) === 1;
  /** `[v]` with `v` an integral float. */
  const floatInArray = (v: number) => {
    const a = x.new_array!(1);
    x.array_push!(a, x.new_float!(v));
    return a;
  };
  assert.not.ok(eq(1n, new F(1)));
  assert.not.ok(x.value_eq!(arg([1n]), floatInArray(1)));
  assert.equal(s.get(x.op_eq!(arg([1n]), floatInArray(1))), false);
  assert.ok(eq({ a: [1n, 'x', null] }, { a: [1n, 'x', null] }));
  assert.not.ok(eq({ a: [1n] }, { b: [1n] }));
  assert.not.ok(eq([1n, 2n], [1n]));
  assert.ok(eq(true, true));
  assert.not.ok(eq(true, false));
});

test('| merges two objects shallowly, the right side winning; the operands stay as they were', () => {
  const a = s.put({ x: 1n, y: { p: 1n } });
  const b = s.put({ y: { q: 2n }, z: [] });
  const merged = x.op_merge!(a, b);
  assert.equal(s.get(merged), { x: 1n, y: { q: 2n }, z: [] });
  const cell = s.cell(null);
  x.path_set!(cell, s.path(), merged);
  x.path_set!(cell, s.path('y', 'r'), s.put(3n));
  x.path_set!(cell, s.path('x'), s.put(0n));
  assert.equal(s.cellValue(cell), { x: 0n, y: { q: 2n, r: 3n }, z: [] });
  assert.equal(s.get(a), { x: 1n, y: { p: 1n } });
  assert.equal(s.get(b), { y: { q: 2n }, z: [] });
  err('op_merge', { x: 1n }, 2n, "can't merge type integer into { x: integer }");
});

test("&& after a left side that is not falsy (logic.ts): booleans only, VRL's kinds in the error", () => {
  assert.is(x.is_falsy!(arg(null)), 1);
  assert.is(x.is_falsy!(arg(false)), 1);
  assert.is(x.is_falsy!(arg(0n)), 0);
  ok('op_and', true, true, true);
  ok('op_and', true, false, false);
  ok('op_and', true, null, false);
  err('op_and', true, 's', "can't apply an AND to types boolean and string");
  err('op_and', true, [1n], "can't apply an AND to types boolean and [integer]");
  err('op_and', { k: 'v' }, true, "can't apply an AND to types { k: string } and boolean");
});

test('! and bool_test take booleans only', () => {
  assert.equal(op('op_not', true), { value: false });
  assert.equal(op('op_not', false), { value: true });
  assert.equal(op('op_not', 's'), { error: 'expected boolean, got string' });
  assert.equal(op('op_not', null), { error: 'expected boolean, got null' });
  assert.is(x.bool_test!(arg(true)), 1);
  assert.is(x.bool_test!(arg(false)), 0);
  assert.is(x.bool_test!(arg([1n])), -1);
  assert.is(s.error(), 'expected boolean, got [integer]');
});

test.run();
