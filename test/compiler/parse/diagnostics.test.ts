import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Diagnostic } from '../../../compiler/diagnostics/diagnostic.js';
import { parse } from '../../../compiler/parse/index.js';

/** The single diagnostic of a program that must not parse. */
function only(source: string): Diagnostic {
  const { program, diagnostics } = parse(source);
  assert.is(program, undefined, `no program for ${JSON.stringify(source)}`);
  assert.is(diagnostics.length, 1, `one diagnostic for ${JSON.stringify(source)}`);
  return diagnostics[0]!;
}
const labels = (d: Diagnostic) => d.labels.map((l) => [l.primary ? 'primary' : 'secondary', l.span, l.message]);
const primaryLabel = (d: Diagnostic) => labels(d)[0];

const AFTER_OPERAND =
  'expected one of: ";", "\\n", "|", "+", "*", "-", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "??"';

test('E203: the unexpected token, named as VRL names it, with the expected tokens', () => {
  const d = only('1 -1');
  assert.is(d.code, 203);
  assert.is(d.message, 'syntax error');
  assert.is(d.severity, 'error');
  assert.equal(labels(d), [
    ['primary', [2, 4], 'unexpected syntax token: "IntegerLiteral"'],
    ['secondary', [2, 4], AFTER_OPERAND],
  ]);
});

test('E203: token kinds and spans', () => {
  const cases: Array<[string, [number, number], string]> = [
    ['x = 5; x-1', [8, 10], 'IntegerLiteral'],
    ['abs (1)', [4, 5], 'LParen'],
    ['1 abs!(1)', [2, 5], 'FunctionCall'],
    ['1 x.a', [2, 3], 'LQuery'],
    ['1 .a', [2, 3], 'LQuery'],
    ['1 "a"', [2, 5], 'StringLiteral'],
    ["1 s'a'", [2, 6], 'RawStringLiteral'],
    ["1 r'a'", [2, 6], 'RegexLiteral'],
    ["1 t'a'", [2, 6], 'TimestampLiteral'],
    ['1 1.5', [2, 5], 'FloatLiteral'],
    ['1 true', [2, 6], 'True'],
    ['1 else', [2, 6], 'Else'],
    ['1 _', [2, 3], 'Underscore'],
    ['1 ->', [2, 4], 'Arrow'],
    ['1 |=', [2, 4], 'MergeEquals'],
    ['1 = 2', [2, 3], 'Equals'],
    ['1 ? 2', [2, 3], 'Question'],
    ['1 $', [2, 3], 'InvalidToken'],
    ['x = {"a" 1}', [9, 10], 'IntegerLiteral'],
    ['if true { 1 } else { 2 } + 1', [25, 26], 'Operator'],
    ['if true {} else {}', [9, 10], 'RBrace'],
    ['1;;2', [2, 3], 'SemiColon'],
    ['[1\n, 2]', [3, 4], 'Comma'],
    ['if\ntrue { 1 }', [2, 3], 'Newline'],
    ['1 + if true { 1 } else { 2 }', [4, 6], 'If'],
    ['[abort]', [1, 6], 'Abort'],
    ['abs(x = 1)', [6, 7], 'Equals'],
    ['(1 + 2).a', [7, 8], 'LQuery'],
    ['map_values(.a) -> |v| v', [22, 23], 'Identifier'],
    ['"é" 1', [5, 6], 'IntegerLiteral'],
  ];
  for (const [source, span, kind] of cases) {
    const d = only(source);
    assert.is(d.code, 203, source);
    assert.equal(primaryLabel(d), ['primary', span, `unexpected syntax token: "${kind}"`], source);
  }
});

test('E203: expected tokens inside argument lists and closures', () => {
  assert.equal(labels(only('abs(1 2)'))[1], [
    'secondary',
    [6, 7],
    'expected one of: "\\n", "|", ",", "+", "*", "-", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "??", ")"',
  ]);
  assert.equal(labels(only('f(x) -> |a| 1'))[1], ['secondary', [12, 13], 'expected one of: "\\n", "{"']);
});

test('E203: a path that stops short reports "unexpected end of query path" on its last token', () => {
  assert.equal(primaryLabel(only('.a.')), ['primary', [2, 3], 'unexpected end of query path']);
  assert.equal(primaryLabel(only('.a. b')), ['primary', [2, 3], 'unexpected end of query path']);
  assert.equal(primaryLabel(only('x.')), ['primary', [1, 2], 'unexpected end of query path']);
  assert.equal(primaryLabel(only('.a[')), ['primary', [2, 3], 'unexpected end of query path']);
  assert.equal(primaryLabel(only('.a[1')), ['primary', [3, 4], 'unexpected end of query path']);
  assert.equal(primaryLabel(only('.a[x]')), ['primary', [3, 4], 'unexpected syntax token: "Identifier"']);
  assert.equal(labels(only('.a[x]'))[1], ['secondary', [3, 4], 'expected one of: "integer literal"']);
});

test('E204: unexpected end of program, after the last token', () => {
  const d = only('x = 1 +');
  assert.is(d.code, 204);
  assert.is(d.message, 'syntax error');
  assert.equal(primaryLabel(d), ['primary', [7, 7], 'unexpected end of program']);
  assert.equal(primaryLabel(only('x = 1 + \n ')), ['primary', [9, 9], 'unexpected end of program']);
  assert.equal(labels(only('abs(1'))[1], [
    'secondary',
    [5, 5],
    'expected one of: "\\n", "|", ",", "+", "*", "-", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "??", ")"',
  ]);
  assert.is(only('return').code, 204);
  assert.is(only('if true { 1').code, 204);
});

test('E205: reserved identifiers as variables, but not as fields or function names', () => {
  const d = only('x = while');
  assert.is(d.code, 205);
  assert.is(d.message, 'reserved keyword');
  assert.equal(labels(d), [
    ['primary', [4, 9], 'this identifier name is reserved for future use in the language'],
    ['secondary', [4, 9], 'use a different name instead'],
  ]);
  for (const source of ['for = 1', 'x = string', '1 loop', 'map(.) -> |array| { 1 }'])
    assert.is(only(source).code, 205, source);
  for (const source of ['.while = 1', 'string!(.a)', 'x = {"for": 1}.for', 'type = 1', 'f(while: 1)']) {
    assert.equal(parse(source).diagnostics, [], source);
  }
});

test('E206-E209: lexical errors label the offending character (VRL 0.31 on)', () => {
  const escape = only('x = 1\n"\\q"');
  assert.is(escape.code, 209);
  assert.is(escape.message, 'invalid escape character: \\q');
  assert.equal(labels(escape), [['primary', [8, 9], 'invalid escape character: q']]);
  const unicode = only('"\\u{D800}" + 1');
  assert.equal([unicode.code, primaryLabel(unicode)], [209, ['primary', [2, 3], 'invalid escape character: u']]);
  for (const bad of ['"\\u{}"', '"\\u{110000}"', '"\\u{12g}"', '"\\u41"', '"\\u{1234567}"'])
    assert.is(only(bad).code, 209, bad);
  const string = only('x = 1\n"abc');
  assert.equal(
    [string.code, string.message, primaryLabel(string)],
    [207, 'invalid string literal', ['primary', [6, 7], 'invalid string literal']],
  );
  const raw = only("x = 1\ns'abc");
  assert.equal(
    [raw.code, raw.message, primaryLabel(raw)],
    [208, 'invalid literal', ['primary', [6, 7], 'invalid literal']],
  );
  const large = only('x = 1; 9223372036854775808; y = 2');
  assert.equal(
    [large.code, large.message, primaryLabel(large)],
    [
      206,
      'invalid numeric literal',
      ['primary', [7, 26], 'invalid numeric literal: number too large to fit in target type'],
    ],
  );
  assert.equal(primaryLabel(only('-9223372036854775809')), [
    'primary',
    [0, 20],
    'invalid numeric literal: number too small to fit in target type',
  ]);
  // Byte offsets: `é` takes two bytes.
  assert.equal(primaryLabel(only('"é\\q"')), ['primary', [4, 5], 'invalid escape character: q']);
});

test('\\u{…} escapes name any Unicode scalar value (VRL 0.33)', () => {
  const decoded = (source: string) => {
    const { program } = parse(source);
    const e = program?.exprs[0];
    return e?.type === 'Literal' && e.value.kind === 'string' ? e.value.value : undefined;
  };
  assert.is(decoded('"hello\\u{1F30E}world"'), 'hello\u{1F30E}world');
  assert.is(decoded('"\\u{41}\\u{e9}\\u{0}"'), 'A\u00e9\0');
  assert.is(decoded('"\\u{10FFFF}"'), '\u{10FFFF}');
});

test('a lexical error wins wherever it is; otherwise the first error is reported', () => {
  assert.is(only('1 2 "\\q"').code, 209);
  assert.is(only('"\\q" 1 2').code, 209);
  assert.is(only('abs(1 2); "abc').code, 207);
  assert.is(only('x = 1 2\nx = while').code, 203);
  // A chained comparison is VRL's compiler's error: any syntax error wins over it.
  assert.is(only('x = while; 1 < 2 < 3').code, 205);
  assert.is(only('1 < 2 < 3; x = while').code, 205);
});

test.run();
