import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AssignTarget, Expr, LiteralValue, PathSegment, Query } from '../../../compiler/ast.js';
import { parse } from '../../../compiler/parse/index.js';

// A compact s-expression of the AST, so that shapes (precedence above all) read at a glance.
function segment(s: PathSegment): string {
  if (s.kind === 'index') return `[${s.index}]`;
  if (s.kind === 'coalesce') return `.(${s.fields.join(' | ')})`;
  return s.quoted ? `.${JSON.stringify(s.name)}` : `.${s.name}`;
}
function query(q: Query): string {
  const path = q.path.map(segment).join('');
  switch (q.target.kind) {
    case 'event':
      return path.startsWith('.') ? path : `.${path}`;
    case 'metadata':
      return `%${path.replace(/^\./, '')}`;
    case 'variable':
      return q.target.name + path;
    case 'expr':
      return `(query ${show(q.target.expr)} ${path})`;
  }
}
function literal(v: LiteralValue): string {
  switch (v.kind) {
    case 'string':
      return JSON.stringify(v.value);
    case 'integer':
      return String(v.value);
    case 'float':
      return Number.isInteger(v.value) ? `${v.value}.0` : String(v.value);
    case 'boolean':
      return String(v.value);
    case 'null':
      return 'null';
    case 'timestamp':
      return `t'${v.text}'`;
    case 'regex':
      return `r'${v.pattern}'`;
  }
}
const target = (t: AssignTarget): string => (t.kind === 'noop' ? '_' : query(t.query));
function show(e: Expr): string {
  switch (e.type) {
    case 'Literal':
      return literal(e.value);
    case 'Template':
      return `(template ${e.parts.map((p) => (typeof p === 'string' ? JSON.stringify(p) : show(p))).join(' ')})`;
    case 'Array':
      return `[${e.items.map(show).join(' ')}]`;
    case 'Object':
      return `{${e.entries.map((en) => `${JSON.stringify(en.key)}: ${show(en.value)}`).join(', ')}}`;
    case 'Query':
      return query(e);
    case 'Variable':
      return e.name;
    case 'Call': {
      const args = e.args.map((a) => (a.name ? `${a.name}: ${show(a.value)}` : show(a.value)));
      const closure = e.closure ? ` -> |${e.closure.params.map((p) => p.name).join(' ')}| ${show(e.closure.body)}` : '';
      return `(${e.name}${e.abort ? '!' : ''}${args.map((a) => ' ' + a).join('')}${closure})`;
    }
    case 'Unary':
      return `(! ${show(e.operand)})`;
    case 'Binary':
      return `(${e.op} ${show(e.left)} ${show(e.right)})`;
    case 'Assign': {
      const targets = e.errorTarget ? `(${target(e.target)} ${target(e.errorTarget)})` : target(e.target);
      return `(${e.op} ${targets} ${show(e.value)})`;
    }
    case 'If':
      return `(if ${show(e.predicate)} ${show(e.then)}${e.else ? ' else ' + show(e.else) : ''})`;
    case 'Block':
      return `{${e.exprs.map(show).join('; ')}}`;
    case 'Group':
      return `(group ${show(e.expr)})`;
    case 'Sequence':
      return `(sequence ${e.exprs.map(show).join(' ')})`;
    case 'Abort':
      return e.message ? `(abort ${show(e.message)})` : '(abort)';
    case 'Return':
      return `(return ${show(e.value)})`;
  }
}

/** The program's expressions as s-expressions, joined by `; `; fails on any diagnostic. */
function shape(source: string): string {
  const { program, diagnostics } = parse(source);
  assert.equal(diagnostics, [], `diagnostics for ${JSON.stringify(source)}`);
  return program!.exprs.map(show).join('; ');
}

test('arithmetic: * / % bind tighter than + -, all left-associative', () => {
  assert.is(shape('1 + 2 * 3'), '(+ 1 (* 2 3))');
  assert.is(shape('1 * 2 + 3'), '(+ (* 1 2) 3)');
  assert.is(shape('10 - 2 - 3'), '(- (- 10 2) 3)');
  assert.is(shape('8 / 2 * 2 % 3'), '(% (* (/ 8 2) 2) 3)');
});

test('comparison binds looser than arithmetic and tighter than equality', () => {
  assert.is(shape('1 + 1 < 3'), '(< (+ 1 1) 3)');
  assert.is(shape('true == 1 < 2'), '(== true (< 1 2))');
  assert.is(shape('true != 1 <= 2'), '(!= true (<= 1 2))');
});

test('object merge | binds looser than + and tighter than comparison; |= stays an assignment', () => {
  assert.is(shape('a | b + c'), '(| a (+ b c))');
  assert.is(shape('1 < a | b'), '(< 1 (| a b))');
  assert.is(shape('a | b | c'), '(| (| a b) c)');
  assert.is(shape('x |= a | b'), '(|= x (| a b))');
  assert.is(shape('a || b'), '(|| a b)');
});

test('&& and || share one level, left-associative, looser than equality', () => {
  assert.is(shape('true || true && false'), '(&& (|| true true) false)');
  assert.is(shape('false && true || true'), '(|| (&& false true) true)');
  assert.is(shape('1 == 1 && 2 == 2'), '(&& (== 1 1) (== 2 2))');
});

test('?? is the loosest binary operator', () => {
  assert.is(shape('1 + parse_int("x") ?? 5'), '(?? (+ 1 (parse_int "x")) 5)');
  assert.is(shape('true || false ?? 1'), '(?? (|| true false) 1)');
  assert.is(shape('a ?? b ?? c'), '(?? (?? a b) c)');
  assert.is(shape('x = 1 + 2 ?? 3'), '(= x (?? (+ 1 2) 3))');
});

test('! binds tightest and nests', () => {
  assert.is(shape('!true == false'), '(== (! true) false)');
  assert.is(shape('!!x && y'), '(&& (! (! x)) y)');
  assert.is(shape('!exists(.a)'), '(! (exists .a))');
});

test('newlines may follow an operator but not precede one', () => {
  assert.is(shape('1 +\n2'), '(+ 1 2)');
  assert.is(shape('.a ??\n  "x"'), '(?? .a "x")');
  assert.equal(
    parse('1\n+ 2').diagnostics.map((d) => d.code),
    [203],
  );
});

test('groups, blocks and negative literals', () => {
  assert.is(shape('(1 + 2) * 3'), '(* (group (+ 1 2)) 3)');
  assert.is(shape('1 - -1'), '(- 1 -1)');
  assert.is(shape('(x = 1)'), '(group (= x 1))');
  assert.is(shape('{ x = 1; x }'), '{(= x 1); x}');
});

test('if / else if / else, else also on the next line', () => {
  assert.is(shape('if true { 1 } else if false { 2 } else { 3 }'), '(if true {1} else (if false {2} else {3}))');
  assert.is(shape('if .a == 1 {\n  .b = 2\n}\nelse {\n  .b = 3\n}'), '(if (== .a 1) {(= .b 2)} else {(= .b 3)})');
  assert.is(shape('if true\n{ 1 }'), '(if true {1})');
  assert.is(shape('if true { 1 } else\n{ 2 }'), '(if true {1} else {2})');
  assert.is(shape('if { true } { 1 }'), '(if {true} {1})');
  assert.is(shape('if(1)'), '(if 1)');
});

test('event paths: fields, quoted fields, indexes, negative indexes, coalesced fields', () => {
  assert.is(shape('.'), '.');
  assert.is(shape('.a.b'), '.a.b');
  assert.is(shape('."quoted key".b'), '."quoted key".b');
  assert.is(shape('.a[0][-1].b'), '.a[0][-1].b');
  assert.is(shape('.a[ 1 ]'), '.a[1]');
  assert.is(shape('.(a | "b c").d'), '.(a | b c).d');
  assert.is(shape('.@timestamp.1a'), '.@timestamp.1a');
  assert.is(shape('.[0]'), '.[0]');
  assert.is(shape('.if.else.null'), '.if.else.null');
});

test('metadata paths and variable paths', () => {
  assert.is(shape('%'), '%');
  assert.is(shape('%a.b'), '%a.b');
  assert.is(shape('%"a b"'), '%"a b"');
  assert.is(shape('x.a[1]'), 'x.a[1]');
  assert.is(shape('x'), 'x');
});

test('queries on call results and containers', () => {
  assert.is(shape('parse_json!(.x).a'), '(query (parse_json! .x) .a)');
  assert.is(shape('[1, 2][0]'), '(query [1 2] [0])');
  assert.is(shape('{"a": 1}.a'), '(query {"a": 1} .a)');
  assert.is(shape('f()[0].b'), '(query (f) [0].b)');
});

test('path spans are byte offsets', () => {
  const q = parse('.a."b c"[-1]').program!.exprs[0] as Query;
  assert.equal(q.span, [0, 12]);
  assert.equal(
    q.path.map((s) => s.span),
    [
      [1, 2],
      [3, 8],
      [8, 12],
    ],
  );
});

test('assignment: =, |=, chained, to paths and indexes, two targets with _', () => {
  assert.is(shape('.a.b = 1'), '(= .a.b 1)');
  assert.is(shape('x[2] = 1'), '(= x[2] 1)');
  assert.is(shape('%m = 1'), '(= %m 1)');
  assert.is(shape('. |= {"a": 1}'), '(|= . {"a": 1})');
  assert.is(shape('x = y = 1'), '(= x (= y 1))');
  assert.is(shape('ok, err = f(1)'), '(= (ok err) (f 1))');
  assert.is(shape('_, err = f(1)'), '(= (_ err) (f 1))');
  assert.is(shape('.a, _ = f(1)'), '(= (.a _) (f 1))');
  assert.is(shape('x =\n  if true { 1 } else { 2 }'), '(= x (if true {1} else {2}))');
  assert.is(shape('x = abort'), '(= x (abort))');
});

test('two-target assignment keeps both targets and the operator span', () => {
  const e = parse('ok, err = f(1)').program!.exprs[0]!;
  assert.is(e.type, 'Assign');
  if (e.type !== 'Assign') return;
  assert.equal(e.opSpan, [8, 9]);
  assert.equal(e.errorTarget, {
    kind: 'query',
    query: { type: 'Query', span: [4, 7], target: { kind: 'variable', name: 'err', span: [4, 7] }, path: [] },
  });
});

test('function calls: positional and named arguments, !, trailing commas, newlines', () => {
  assert.is(shape('f(1, b: 2)'), '(f 1 b: 2)');
  assert.is(shape('f!(1)'), '(f! 1)');
  assert.is(shape('f(\n  1,\n  value: "x",\n)'), '(f 1 value: "x")');
  assert.is(shape('f(value : 1)'), '(f value: 1)');
  assert.is(shape('null(1)'), '(null 1)');
  const call = parse('upcase!(value: .a)').program!.exprs[0]!;
  assert.is(call.type, 'Call');
  if (call.type !== 'Call') return;
  assert.equal(call.nameSpan, [0, 6]);
  assert.equal(call.args[0]!.nameSpan, [8, 13]);
  assert.equal(call.args[0]!.span, [8, 17]);
});

test('closures, nested, with _ parameters and trailing commas', () => {
  assert.is(shape('map_values(.a) -> |v| { v }'), '(map_values .a -> |v| {v})');
  assert.is(shape('for_each(.a) -> |_, v,| { null }'), '(for_each .a -> |_ v| {null})');
  assert.is(shape('f(x) -> || { 1 }'), '(f x -> || {1})');
  assert.is(
    shape('map_values(.a) -> |v| {\n  map_values(v) -> |w| { w }\n}'),
    '(map_values .a -> |v| {(map_values v -> |w| {w})})',
  );
  assert.is(shape('x = map_values(.a) -> |v|\n{ v }'), '(= x (map_values .a -> |v| {v}))');
  const call = parse('f(x) -> |a| { a }').program!.exprs[0]!;
  assert.equal(call.type === 'Call' && call.closure?.span, [5, 17]);
  assert.equal(call.span, [0, 17]);
});

test('strings: escapes and line continuation', () => {
  assert.is(shape(String.raw`"a\nb\tc\rd\\e\"f\'g\0h\{\}"`), JSON.stringify('a\nb\tc\rd\\e"f\'g\0h{}'));
  assert.is(shape('"a\\\n    b"'), '"ab"');
  assert.is(shape('"a { b } {c} }}"'), '"a { b } {c} }}"');
});

test('templates: {{ variable }} segments, escaped braces stay text', () => {
  assert.is(shape('"a{{x}}b{{ y }}"'), '(template "a" x "b" y)');
  assert.is(shape('"\\{{ x }}"'), '"{{ x }}"');
  assert.is(shape('"a {{ b"'), '"a "');
  const t = parse('"a{{ x }}"').program!.exprs[0]!;
  assert.equal(t.type === 'Template' && t.parts[1], { type: 'Variable', span: [2, 9], name: 'x' });
});

test('raw strings, timestamps and regexes keep their text', () => {
  assert.is(shape(String.raw`s'a\nb\'c"d'`), JSON.stringify(String.raw`a\nb\'c"d`));
  assert.is(shape("t'2020-10-10T16:00:00Z'"), "t'2020-10-10T16:00:00Z'");
  assert.is(shape(String.raw`r'(?i)^\d+\'x$'`), String.raw`r'(?i)^\d+'x$'`);
  const r = parse("r'a'").program!.exprs[0]!;
  assert.equal(r.type === 'Literal' && r.value, { kind: 'regex', pattern: 'a', flags: '' });
});

test('numbers: separators, floats, i64 bounds; words with letters are identifiers', () => {
  assert.is(shape('1_000'), '1000');
  assert.is(shape('1_000.5_0'), '1000.5');
  assert.is(shape('1.'), '1.0');
  assert.is(shape('-9223372036854775808'), '-9223372036854775808');
  assert.is(shape('9223372036854775807'), '9223372036854775807');
  assert.is(shape('1e5'), '1e5');
});

test('arrays and objects: empty, multi-line, trailing commas, quoted keys', () => {
  assert.is(shape('[]'), '[]');
  assert.is(shape('{}'), '{}');
  assert.is(shape('[\n  1,\n  [2, 3],\n]'), '[1 [2 3]]');
  assert.is(shape('{\n  "a": 1,\n  "b\\n": {"c": null},\n}'), '{"a": 1, "b\\n": {"c": null}}');
  assert.is(shape('{"a{{x}}": 1}'), '{"a{{x}}": 1}');
});

test('abort and return', () => {
  assert.is(shape('abort'), '(abort)');
  assert.is(shape('abort "bad"'), '(abort "bad")');
  assert.is(shape('abort\n"next"'), '(abort); "next"');
  assert.is(shape('return .a + 1'), '(return (+ .a 1))');
});

test('statements: newlines and ; separate them; comments are ignored', () => {
  assert.is(shape(''), '');
  assert.is(shape('# only a comment'), '');
  assert.is(shape('\n\n# c\nx = 1 # trailing\n\n.a = x;\n'), '(= x 1); (= .a x)');
  assert.is(shape('1; 2;'), '1; 2');
  assert.is(shape('[1, # one\n 2]'), '[1 2]');
  assert.is(shape('"a#b"'), '"a#b"');
});

test('spans of a non-ASCII program are UTF-8 byte offsets', () => {
  const { program } = parse('x = "é"\n.a = x');
  assert.equal(program!.span, [0, 15]);
  assert.equal(program!.exprs[1]!.span, [9, 15]);
});

test.run();
