// The remap language as VRL 0.35 has it: the reference's expression examples
// (vector/remap/expressions/*.cue, transcribed) and what changed from 0.25 to 0.35 — predicates of several
// expressions, `return`, NaN as a runtime error, E113, errors reported through the enclosing call,
// `replace_with`'s reserved group names. Compiled to wasm and run. The examples' "Remainder" (`mod(3, 2)`)
// is left to `mod`'s own examples; "Error coalescing" uses other parse functions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compile, display } from '../../runtime/index.js';
import { checkProgram } from '../../compiler/compile.js';

interface Case {
  title?: string;
  source: string;
  event?: Record<string, unknown>;
  /** Display form of the result. */
  result?: string;
  /** Display form of the event afterwards (also after an error or abort). */
  after?: string;
  /** Runtime error text. */
  error?: string;
  /** The program ends in `abort`. */
  aborted?: boolean;
  /** Compile error code. */
  code?: number;
}

async function outcome(c: Case): Promise<{ result?: string; after?: string; error?: string; code?: number }> {
  let program;
  try {
    program = await compile(c.source, { timezone: 'UTC' });
  } catch (error) {
    return { code: (error as { diagnostics: Array<{ code: number }> }).diagnostics[0]?.code };
  }
  try {
    const { result, event } = program.run(c.event ?? {});
    return { result: display(result), after: display(event) };
  } catch (error) {
    return { error: (error as Error).message, after: display((error as { event: never }).event) };
  }
}

function table(name: string, cases: Case[]): void {
  test(name, async () => {
    for (const c of cases) {
      const got = await outcome(c);
      const label = c.title ?? c.source;
      assert.is(got.code, c.code, label);
      if (c.code !== undefined) continue;
      if (c.error !== undefined) assert.is(got.error, c.error, label);
      else if (!c.aborted) assert.is(got.error, undefined, label);
      else assert.ok(got.error !== undefined, `${label}: aborts`);
      if (c.result !== undefined) assert.is(got.result, c.result, label);
      if (c.after !== undefined) assert.is(got.after, c.after, label);
    }
  });
}

table("the reference's expression examples", [
  {
    title: 'abort: Ignoring invalid events',
    source: 'if contains(string!(.message), "hello") {\n\tabort\n}\n.message = "not hello world"',
    event: { message: 'hello world' },
    after: '{ "message": "hello world" }',
    aborted: true,
  },
  { title: 'arithmetic: Sum (int)', source: '1 + 1', result: '2' },
  { title: 'arithmetic: Sum (float)', source: '1.0 + 1.0', result: '2.0' },
  { title: 'arithmetic: Sum (numeric)', source: '1 + 1.0', result: '2.0' },
  { title: 'arithmetic: Sum (string)', source: '"Hello" + ", " + "World!"', result: '"Hello, World!"' },
  { title: 'arithmetic: Difference (int)', source: '2 - 1', result: '1' },
  { title: 'arithmetic: Difference (float)', source: '2.0 - 1.0', result: '1.0' },
  { title: 'arithmetic: Difference (numeric)', source: '2.0 - 1', result: '1.0' },
  { title: 'arithmetic: Multiplication (int)', source: '2 * 1', result: '2' },
  { title: 'arithmetic: Multiplication (float)', source: '2.0 * 1.0', result: '2.0' },
  { title: 'arithmetic: Multiplication (numeric)', source: '2.0 * 1', result: '2.0' },
  { title: 'arithmetic: Float division (int)', source: '2 / 1', result: '2.0' },
  { title: 'arithmetic: Float division (float)', source: '2.0 / 1.0', result: '2.0' },
  { title: 'arithmetic: Float division (numeric)', source: '2.0 / 1', result: '2.0' },
  {
    title: 'assignment: Path assignment',
    source: '.message = "Hello, World!"',
    after: '{ "message": "Hello, World!" }',
  },
  {
    title: 'assignment: Nested path assignment',
    source: '.parent.child = "Hello, World!"',
    after: '{ "parent": { "child": "Hello, World!" } }',
  },
  {
    title: 'assignment: Double assignment',
    source: '.first = .second = "Hello, World!"',
    after: '{ "first": "Hello, World!", "second": "Hello, World!" }',
  },
  {
    title: 'assignment: Array element assignment',
    source: '.array[1] = "Hello, World!"',
    after: '{ "array": [null, "Hello, World!"] }',
  },
  {
    title: 'assignment: Variable assignment',
    source: 'my_variable = "Hello, World!"\n.my_field = my_variable',
    result: '"Hello, World!"',
  },
  {
    title: 'assignment: Object merge assignment',
    source: 'my_variable = {"message": "Hello, World!"}\nmy_variable |= {"level": "info"}',
    result: '{ "level": "info", "message": "Hello, World!" }',
  },
  {
    title: 'assignment: Fallible assignment (success)',
    source: '.parsed, .err = parse_json("{\\"Hello\\": \\"World!\\"}")',
    after: '{ "err": null, "parsed": { "Hello": "World!" } }',
  },
  {
    title: 'assignment: Fallible assignment (error)',
    source: '.parsed, .err = parse_json("malformed")',
    after:
      '{ "err": "function call error for \\"parse_json\\" at (16:39): unable to parse json: expected value at line 1 column 1", "parsed": null }',
  },
  {
    title: 'block: Simple block',
    source: '{\n\tmessage = "{\\"Hello\\": \\"World!\\"}"\n\tparse_json!(message)\n}',
    result: '{ "Hello": "World!" }',
  },
  {
    title: 'block: Assignment block',
    source: '.structured = {\n\tmessage = "{\\"Hello\\": \\"World!\\"}"\n\tparse_json!(message)\n}',
    after: '{ "structured": { "Hello": "World!" } }',
  },
  // The reference's functions (parse_syslog, parse_common_log) swapped for ones every build has.
  {
    title: 'coalesce: Error coalescing',
    source: 'parse_json("not json") ?? parse_regex("abc", r\'x\') ?? "malformed"',
    result: '"malformed"',
  },
  { title: 'comparison: Equal integers', source: '1 == 1', result: 'true' },
  { title: 'comparison: Equal integer and float', source: '1 == 1.0', result: 'true' },
  { title: 'comparison: Not equal', source: '1 != 2', result: 'true' },
  { title: 'comparison: Equal string', source: 'x = "foo"\nx == "foo"', result: 'true' },
  { title: 'comparison: Not equal strings', source: '"foo" != "bar"', result: 'true' },
  { title: 'comparison: Greater than or equal', source: '2 >= 2', result: 'true' },
  { title: 'comparison: Greater than', source: '2 > 1', result: 'true' },
  { title: 'comparison: Less than or equal', source: '2 <= 2', result: 'true' },
  { title: 'comparison: Less than', source: '1 < 2', result: 'true' },
  {
    title: 'comparison: Less than timestamps',
    source: "t'2024-04-04T22:22:22.234142+01:00' < t'2024-04-04T22:22:22.234142+04:00'",
    result: 'false',
  },
  {
    title: 'function_call: Positional function invocation',
    source: 'split("hello, world!", ", ")',
    result: '["hello", "world!"]',
  },
  {
    title: 'function_call: Named function invocation (ordered)',
    source: 'split("hello, world!", pattern: ", ")',
    result: '["hello", "world!"]',
  },
  {
    title: 'function_call: Named function invocation (unordered)',
    source: 'split(pattern: ", ", value: "hello, world!")',
    result: '["hello", "world!"]',
  },
  {
    title: 'function_call: Infallible function invocation',
    source: 'split("apples and pears and bananas", " and ")',
    result: '["apples", "pears", "bananas"]',
  },
  {
    title: 'function_call: Fallible function invocation',
    source:
      '# The compiler cannot determine the argument type thus we need to do error handling.\nsplit!(.message, " and ")',
    event: { message: 'apples and pears and bananas' },
    result: '["apples", "pears", "bananas"]',
  },
  { title: 'if: True if expression', source: 'if true {\n\t"Hello, World!"\n}', result: '"Hello, World!"' },
  { title: 'if: False if expression', source: 'if false {\n\t# not evaluated\n\tnull\n}', result: 'null' },
  {
    title: 'if: If/else expression',
    source: 'if false {\n\t# not evaluated\n\tnull\n} else {\n\t"Hello, World!"\n}',
    result: '"Hello, World!"',
  },
  {
    title: 'if: If/else if/else expression',
    source:
      'if false {\n\t# not evaluated\n\tnull\n} else if false {\n\t# not evaluated\n\tnull\n} else {\n\t"Hello, World!"\n}',
    result: '"Hello, World!"',
  },
  {
    title: 'if: Multiline expression',
    source:
      'x = 3\nif (x = x + 1; x == 5) {\n\t# not evaluated\n\tnull\n} else if (\n\tx = x + 1\n\tx == 5\n) {\n\t"Hello, World!"\n}',
    result: '"Hello, World!"',
  },
  {
    title: 'index: Array index expression',
    source: '.array[0]',
    event: { array: ['first', 'second'] },
    result: '"first"',
  },
  { title: 'logical: AND', source: 'true && true', result: 'true' },
  { title: 'logical: OR (boolean)', source: 'false || "foo"', result: '"foo"' },
  { title: 'logical: OR (null)', source: 'null || "foo"', result: '"foo"' },
  { title: 'logical: NOT', source: '!false', result: 'true' },
  {
    title: 'path: Root event path',
    source: '.',
    event: { message: 'Hello, World!' },
    result: '{ "message": "Hello, World!" }',
  },
  { title: 'path: Root metadata path', source: '%', event: { message: 'Hello, World!' }, result: '{}' },
  { title: 'path: Top-level path', source: '.message', event: { message: 'Hello, World!' }, result: '"Hello, World!"' },
  {
    title: 'path: Nested path',
    source: '.parent.child',
    event: { parent: { child: 'Hello, World!' } },
    result: '"Hello, World!"',
  },
  {
    title: 'path: Array element path (first)',
    source: '.array[0]',
    event: { array: ['first', 'second'] },
    result: '"first"',
  },
  {
    title: 'path: Array element path (second)',
    source: '.array[1]',
    event: { array: ['first', 'second'] },
    result: '"second"',
  },
  {
    title: 'path: Quoted path',
    source: '."parent.key.with.special characters".child',
    event: { 'parent.key.with.special characters': { child: 'Hello, World!' } },
    result: '"Hello, World!"',
  },
  { title: 'variable: Simple variable', source: 'my_variable = 1\nmy_variable == 1', result: 'true' },
  { title: 'variable: Variable with path', source: 'my_object = { "one": 1 }\nmy_object.one', result: '1' },
]);

table('if: a parenthesized predicate may hold several expressions', [
  { source: 'x = 1; if (x = x + 1; x == 2) { "yes" } else { "no" }', result: '"yes"' },
  { source: 'if (status, err = int(.status); err == null) { status } else { err }', event: { status: 3 }, result: '3' },
  {
    source: 'if (status, err = int(.status); err == null) { status } else { err }',
    event: { status: '3' },
    result: '"function call error for \\"int\\" at (18:30): expected integer, got string"',
  },
  // Newlines, comments and blank lines separate them too; what they assign stays defined after the `if`.
  { source: 'if (\n  # first\n  a = 1\n\n  b = a + 1;\n  b == 2\n) {\n  "two"\n}\n[a, b]', result: '[1, 2]' },
  // One parenthesized expression is a group, also when an operator follows it.
  { source: 'if (false) || true { 1 } else { 2 }', result: '1' },
  { source: 'if (1 == 1) { "g" }', result: '"g"' },
  { source: 'if ("é" == "é"; "\\u{1F30E}" == "🌎") { "unicode" }', result: '"unicode"' },
  // The last expression is the predicate: it must be a boolean.
  { source: 'if (x = 1; x) { 1 }', code: 102 },
  { source: 'if (true; 1) { 1 }', code: 102 },
  // Not a predicate elsewhere.
  { source: 'x = (1; 2)', code: 203 },
]);

test('if: a predicate of many expressions', async () => {
  const steps = Array.from({ length: 500 }, () => 'n = n + 1').join('; ');
  const got = await outcome({ source: `n = 0\nif (${steps}; n == 500) { n } else { -1 }` });
  assert.is(got.result, '500');
});

table('return: ends the program, or the closure run it is in', [
  { source: '.a = 1; return 2; .b = 3', result: '2', after: '{ "a": 1 }' },
  { source: 'if true { return "early" }; "late"', result: '"early"' },
  { source: 'map_values([1, 2, 3]) -> |v| { if v == 2 { return 20 }; v * 10 }', result: '[10, 20, 30]' },
  { source: 'filter([1, 2, 3, 4]) -> |_i, v| { if v % 2 == 0 { return false }; true }', result: '[1, 3]' },
  {
    source: 'map_keys({ "a": 1, "b": 2 }) -> |k| { if k == "a" { return "x" }; upcase(k) }',
    result: '{ "B": 2, "x": 1 }',
  },
  { source: 'n = 0; for_each([1, 2, 3]) -> |_i, v| { if v == 2 { return null }; n = n + v }; n', result: '4' },
  {
    source: 'replace_with("a1b2", r\'\\d\') -> |m| { if m.string == "1" { return "one" }; "other" }',
    result: '"aonebother"',
  },
  // Nested closures: the inner `return` ends the inner closure only.
  { source: 'map_values([[1, 2]]) -> |a| { map_values(array!(a)) -> |v| { return v + 1 } }', result: '[[2, 3]]' },
  // What `return` gives is part of the closure's return type (E122).
  { source: 'filter([1]) -> |_i, v| { return "x" }', code: 122 },
  { source: 'filter([1]) -> |_i, v| { if v == 1 { return "x" }; true }', code: 122 },
  { source: 'replace_with("a", r\'a\') -> |m| { if true { return 1 }; "b" }', code: 122 },
]);

table('float arithmetic that would give NaN is a runtime error (VRL 0.35)', [
  { source: 'f = to_float!("inf"); f - f', error: 'operation would produce NaN' },
  { source: 'f = to_float!("inf"); f + (0.0 - f)', error: 'operation would produce NaN' },
  { source: 'f = to_float!("inf"); f * 0', error: 'operation would produce NaN' },
  { source: 'f = to_float!("inf"); _, err = f / f; err', result: '"operation would produce NaN"' },
  { source: 'f = to_float!("inf"); f % 2', error: 'operation would produce NaN' },
  {
    source: '.a = 1; f = to_float!("inf"); .b = f - f; .c = 1',
    error: 'operation would produce NaN',
    after: '{ "a": 1 }',
  },
  // Infinities themselves stay.
  { source: 'f = to_float!("inf"); f + f == f', result: 'true' },
  // The `ok, err =` form and `??` handle it.
  {
    source: 'f = to_float!("inf"); x, err = f * .zero; [x, err]',
    event: { zero: 0 },
    result: '[null, "operation would produce NaN"]',
  },
  { source: 'f = to_float!("inf"); f * .zero ?? "none"', event: { zero: 0 }, result: '"none"' },
  // Inside a call it is reported through the call.
  {
    source: 'f = to_float!("inf"); for_each([1]) -> |_i, _v| { f - f }',
    error: 'function call error for "for_each" at (22:57): operation would produce NaN',
  },
]);

table('abort: the message must be a string (E113) and may be a block', [
  { source: 'abort 1', code: 113 },
  { source: 'abort .', code: 113 },
  { source: 'abort { 1 }', code: 113 },
  { source: 'abort parse_json("1")', code: 631 },
  { source: '.a = 1; abort { x = "é"; x + "!" }', error: 'é!', after: '{ "a": 1 }' },
  { source: 'abort ""', error: '' },
  // An abort in the message: VRL accepts a message of no kind but string, so `never` too, and the inner
  // abort ends the program with its own message.
  { source: 'abort abort "x"', error: 'x' },
  { source: '.a = 1; abort { .b = 2; abort "inner" }', error: 'inner', after: '{ "a": 1, "b": 2 }' },
  { source: 'abort if .x == 1 { abort "a" } else { "b" }', event: { x: 1 }, error: 'a' },
  { source: 'abort if .x == 1 { abort "a" } else { 1 }', code: 113 },
  // `(…)` holds no abort in VRL's grammar.
  { source: 'abort (abort "x")', code: 203 },
]);

table('an error raised inside a call is reported through it', [
  {
    source: 'string!(parse_json!("{"))',
    error:
      'function call error for "string" at (0:25): function call error for "parse_json" at (8:24): unable to parse json: EOF while parsing an object at line 1 column 1',
  },
  {
    source: 'for_each([1]) -> |_i, v| { parse_json!("{") }',
    error:
      'function call error for "for_each" at (0:45): function call error for "parse_json" at (27:43): unable to parse json: EOF while parsing an object at line 1 column 1',
  },
  {
    source: 'replace_with("abc", r\'b\') -> |m| { string!(parse_json!("{")) }',
    error:
      'function call error for "replace_with" at (0:62): function call error for "string" at (35:60): function call error for "parse_json" at (43:59): unable to parse json: EOF while parsing an object at line 1 column 1',
  },
  // A handled error is not reported.
  { source: 'string(parse_json("{") ?? "x") ?? "y"', result: '"x"' },
  // An abort inside a closure stays an abort.
  { source: '.a = 1; for_each([1]) -> |_i, _v| { abort "stop" }', error: 'stop', after: '{ "a": 1 }' },
]);

table('replace_with: groups named `string` or `captures` are refused when the call runs, match or not (VRL)', [
  {
    source: 'replace_with("abc", r\'(?P<string>b)\') -> |_m| { "x" }',
    error: 'function call error for "replace_with" at (0:53): Capture group cannot be named "string" or "captures"',
  },
  {
    source: 'replace_with("abc", r\'(?P<captures>b)\') -> |_m| { "x" }',
    error: 'function call error for "replace_with" at (0:55): Capture group cannot be named "string" or "captures"',
  },
  // VRL checks the names before it looks for a match, and the call stays infallible for the checker.
  {
    source: 'replace_with("abc", r\'(?P<string>z)\') -> |_m| { "x" }',
    error: 'function call error for "replace_with" at (0:53): Capture group cannot be named "string" or "captures"',
  },
  {
    source: '.a = 1; .b = replace_with("", r\'(?P<captures>z)|y\', count: 0) -> |_m| { "x" }',
    error: 'function call error for "replace_with" at (13:77): Capture group cannot be named "string" or "captures"',
    after: '{ "a": 1 }',
  },
  // Other names are fields of the match.
  { source: 'replace_with("aéb", r\'(?P<word>é)\') -> |m| { upcase(string!(m.word)) }', result: '"aÉb"' },
  { source: 'replace_with("", r\'x\') -> |_m| { "y" }', result: '""' },
]);

test('replace_with: a large input', async () => {
  const got = await outcome({
    source: "replace_with(string!(.s), r'b') -> |m| { upcase(m.string) }",
    event: { s: 'ab'.repeat(20_000) },
  });
  assert.is(got.result, JSON.stringify('aB'.repeat(20_000)));
});

test('type rules: programs VRL 0.35 compiles', () => {
  for (const source of [
    // unnest: each item is the root with the array replaced by one of its items, nested paths too.
    '.messages = ["a"]; x = unnest(.messages); upcase(x[0].messages)',
    '.event.messages = ["a", "b"]; x = unnest(.event.messages); upcase(x[1].event.messages)',
    'x = {"a": {"b": [1, 2]}}; y = unnest(x.a.b); y[0].a.b + 1',
    '. = {"hostname": "localhost", "event": {"messages": ["m1", "m2"]}}\n. = unnest(.event.messages)',
    // parse_regex: any regex expression (0.34); a constant one types its groups, numbered ones included.
    'parse_regex!("abc", .pattern)',
    "p = r'b'; if .x == 1 { p = r'(c)' }; parse_regex!(\"abc\", p)",
    'x = parse_regex!("a1", r\'(?P<w>a)(\\d)\', numeric_groups: true); upcase(x.w) + upcase(x."1") ?? ""',
    // A named group of a constant pattern is a string.
    ".x = parse_regex!(.m, r'(?P<a>\\d+)').a; upcase(.x)",
    "upcase(parse_regex!(.m, r'(?P<a>\\d+)').a)",
    "p = r'(?P<a>\\d+)'; upcase(parse_regex!(.m, p).a)",
    // parse_regex_all: any regex expression too (its parameter is not literal-only in VRL 0.35).
    'parse_regex_all!("abc", .pattern)',
    "p = r'b'; if .x == 1 { p = r'(c)' }; parse_regex_all!(\"abc\", p)",
    "for_each(parse_regex_all!(.m, r'(?P<a>\\d+)')) -> |_i, m| { .x = upcase(string!(m.a)) }",
  ]) {
    assert.not.throws(() => checkProgram(source), source);
  }
});

table('parse_regex, parse_regex_all: what VRL 0.35 types as string or null is no argument for a string', [
  // A numbered group may not take part in the match.
  { source: 'upcase(parse_regex!(.m, r\'(?P<a>\\d+)(x)?\')."2")', code: 110 },
  // A pattern known only at run time: any field may be missing.
  { source: 'upcase(parse_regex!(.m, .p).a)', code: 110 },
  // Each item of parse_regex_all may be null.
  { source: "upcase(parse_regex_all!(.m, r'(?P<a>\\d+)')[0].a)", code: 110 },
  { source: "upcase(string!(parse_regex_all!(.m, r'(?P<a>\\d+)')[0].a))", event: { m: 'a1' }, result: '"1"' },
]);

table('parse_regex: a pattern known only at run time', [
  {
    source: 'parse_regex!("abc", .p)',
    event: { p: 'b' },
    error: 'function call error for "parse_regex" at (0:23): expected regex, got string',
  },
  {
    source: "p = r'x'; if .c == 1 { p = r'(?P<g>b)' }; parse_regex!(\"abc\", p)",
    event: { c: 1 },
    result: '{ "g": "b" }',
  },
  {
    source: 'parse_regex_all!("abc", .p)',
    event: { p: 'b' },
    error: 'function call error for "parse_regex_all" at (0:27): expected regex, got string',
  },
  {
    source: "p = r'x'; if .c == 1 { p = r'(?P<d>\\d)' }; parse_regex_all!(\"a1b2\", p, numeric_groups: true)",
    event: { c: 1 },
    result: '[{ "0": "1", "1": "1", "d": "1" }, { "0": "2", "1": "2", "d": "2" }]',
  },
]);

table('string escapes', [
  { source: '"hello\\u{1F30E}world"', result: '"hello🌎world"' },
  { source: '"\\u{41}\\u{e9}"', result: '"Aé"' },
  { source: '"\\q"', code: 209 },
  { source: '"\\u{D800}"', code: 209 },
  { source: '"abc', code: 207 },
  { source: "r'abc", code: 208 },
]);

test.run();
