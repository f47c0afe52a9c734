// Progressive type knowledge and fallibility, as spec 3 ("States and transitions") and VRL define them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from '../../../compiler/parse/index.js';
import { check } from '../../../compiler/check/index.js';
import { describe } from '../../../compiler/types/kind.js';

/** Codes of the errors a program produces ([] when it compiles). */
function errors(source: string): number[] {
  const { program, diagnostics } = parse(source);
  assert.equal(diagnostics, [], `syntax errors in ${JSON.stringify(source)}`);
  return check(program!).errors.map((d) => d.code);
}

/** Kind of the program's last expression, in VRL's words. */
function lastKind(source: string): string {
  const { program } = parse(source);
  const result = check(program!);
  assert.equal(result.errors, []);
  const last = program!.exprs[program!.exprs.length - 1]!;
  return describe(result.types.get(last)!.kind);
}

test('a path asserted to be a string is known to be one afterwards (spec 3 transitions)', () => {
  assert.equal(errors('.foo = downcase!(.foo)\nupcase(.foo)'), []);
  assert.equal(errors('.foo = string!(.foo)\n.bar = upcase(.foo)'), []);
});

test('a typed parameter given a value of unknown kind: E110 unhandled, E103 when assigned', () => {
  assert.equal(errors('upcase(.foo)'), [110]);
  assert.equal(errors('.bar = upcase(.foo)'), [103]);
  assert.equal(errors('.bar = upcase!(.foo)'), []);
  assert.equal(errors('.bar, err = upcase(.foo)'), []);
  assert.equal(errors('.bar = upcase(.foo) ?? "none"'), []);
});

test('a value of a known wrong kind is E110 even with `!`', () => {
  assert.equal(errors('upcase!(1)'), [110]);
  assert.equal(errors('x = 1\nupcase!(x)'), [110]);
});

test('branches join: a variable set in one branch has either kind afterwards', () => {
  assert.is(lastKind('x = "a"\nif .a == 1 { x = 1 }\nx'), 'string or integer');
  assert.is(lastKind('if .a == 1 { "a" } else { 1 }'), 'string or integer');
  assert.is(lastKind('if .a == 1 { "a" }'), 'string or null');
});

test('a failed assignment leaves its variable undefined, as in VRL', () => {
  assert.equal(errors('x = 10 / .a\nx'), [103, 701]);
  // When the value itself did not check, later uses of the variable are not reported again.
  assert.equal(errors('x = upcase(1)\nx'), [110]);
});

test('variables introduced in a block end with it', () => {
  assert.equal(errors('if true { y = 1 }\ny'), [701]);
  assert.equal(errors('y = 0\nif true { y = 1 }\ny'), []);
});

test('del forgets what was known of a path', () => {
  assert.equal(errors('.a = "x"\nupcase(.a)'), []);
  assert.equal(errors('.a = "x"\ndel(.a)\nupcase(.a)'), [110]);
  assert.equal(errors('.a = "x"\ndel(compact: true, target: .a)\nupcase(.a)'), [110]);
});

test('each call is resolved once: its function, arguments by parameter in source order, their constants', () => {
  const { program } = parse('x = "%Y"\nformat_timestamp!(format: x, value: now())');
  const result = check(program!);
  assert.equal(result.errors, []);
  const e = program!.exprs[1]!;
  assert.is(e.type, 'Call');
  const call = result.calls.get(e as Extract<typeof e, { type: 'Call' }>)!;
  assert.is(call.def.name, 'format_timestamp');
  assert.equal(
    call.order.map((p) => p.name),
    ['format', 'value'],
  );
  assert.equal(call.args.format!.constant, { kind: 'string', value: '%Y' });
  assert.is(call.args.value!.constant, undefined);
  assert.is(call.args.timezone, undefined);
});

test('division is infallible only by a non-zero constant, including a variable holding one', () => {
  assert.equal(errors('x = 10 / 2\nx'), []);
  assert.equal(errors('y = 2\nx = 10 / y\nx'), []);
  assert.equal(errors('x = 10 / 0'), [103]);
  assert.equal(errors('x = 10 / .a'), [103]);
  assert.is(lastKind('10 / 4'), 'float');
});

test('arithmetic and comparison kinds', () => {
  assert.is(lastKind('1 + 2'), 'integer');
  assert.is(lastKind('1 + 2.0'), 'float');
  assert.is(lastKind('"a" + "b"'), 'string');
  assert.is(lastKind('"ab" * 2'), 'string');
  assert.is(lastKind('"a" < "b"'), 'boolean');
  assert.equal(errors('x = 1 < "a"'), [103]);
  assert.equal(errors('x = .a && true'), [103]);
  assert.equal(errors('x = true && .a\nx'), []);
  assert.equal(errors('x = null && true\nx'), []);
});

test('object merge with | keeps the known fields of both sides', () => {
  assert.is(lastKind('x = {"a": 1} | {"b": "x"}\nx.b'), 'string');
  assert.equal(errors('x = {"a": 1} | .b'), [652]);
});

test('closure variables take the element kinds of the collection', () => {
  assert.equal(errors('for_each([1, 2]) -> |i, v| { .x = i + v }'), []);
  assert.equal(errors('for_each({"a": "b"}) -> |k, v| { .x = upcase(k) + upcase(v) }'), []);
  assert.equal(errors('for_each([1]) -> |i, v| { upcase(v) }'), [110]);
  assert.equal(errors('map_keys({}) -> |k| { 1 }'), [122]);
});

test('the error of a two-target assignment is a string or null', () => {
  assert.is(lastKind('x, err = parse_json(.a)\nerr'), 'string or null');
});

test('parsers with known result fields type their fields', () => {
  assert.is(lastKind('x = parse_syslog!(.m)\nx.hostname'), 'string or null');
});

test('templates join their parts with +', () => {
  assert.equal(errors('x = "a"\n.m = "{{ x }}!"'), []);
  assert.equal(errors('x = 1\n.m = "n={{ x }}"'), [103]);
});

test.run();
