// Every expression form the front end accepts, compiled to wasm and run: the result (display form), the
// event afterwards, or the runtime error text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compile, display } from '../../../runtime/index.js';

interface Case {
  source: string;
  event?: Record<string, unknown>;
  /** Display form of the result. */
  result?: string;
  /** Display form of the event after the program. */
  after?: string;
  /** Runtime error text. */
  error?: string;
}

async function run(c: Case): Promise<{ result?: string; after?: string; error?: string }> {
  const program = await compile(c.source, { timezone: 'UTC' });
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
      const got = await run(c);
      const label = `${c.source} on ${JSON.stringify(c.event ?? {})}`;
      if (c.error !== undefined) assert.is(got.error, c.error, label);
      else assert.is(got.error, undefined, label);
      if (c.result !== undefined) assert.is(got.result, c.result, label);
      if (c.after !== undefined) assert.is(got.after, c.after, label);
    }
  });
}

table('literals', [
  { source: '1', result: '1' },
  { source: '-12', result: '-12' },
  { source: '1.5', result: '1.5' },
  { source: '2.0', result: '2.0' },
  { source: '"a\\"b\\nc"', result: '"a\\"b\\nc"' },
  { source: "s'raw \\n'", result: '"raw \\\\n"' },
  { source: 'null', result: 'null' },
  { source: 'true', result: 'true' },
  { source: '[1, "a", [null]]', result: '[1, "a", [null]]' },
  { source: '{ "b": 1, "a": { "c": [] } }', result: '{ "a": { "c": [] }, "b": 1 }' },
  { source: "t'2020-10-10T16:00:00+02:00'", result: "t'2020-10-10T14:00:00Z'" },
  { source: "t'2020-10-10T16:00:00.123456Z'", result: "t'2020-10-10T16:00:00.123456Z'" },
  { source: "r'^a+$'", result: "r'^a+$'" },
  { source: 's = "x"; "a{{ s }}b"', result: '"axb"' },
]);

table('arithmetic and its errors', [
  { source: '1 + 2', result: '3' },
  { source: '1 + 2.5', result: '3.5' },
  { source: '5 / 2', result: '2.5' },
  { source: '4 / 2', result: '2.0' },
  { source: '7 % 3', result: '1' },
  { source: '2 * 3', result: '6' },
  { source: '0.1 + 0.2', result: '0.30000000000000004' },
  { source: '9223372036854775807 + 1', result: '-9223372036854775808' },
  { source: '-9223372036854775807 - 2', result: '9223372036854775807' },
  { source: '10.0 * 100000000000000000000.0', result: '1000000000000000000000.0' },
  { source: '1.0 / 3.0', result: '0.3333333333333333' },
  { source: '0.000001 / 10.0', result: '0.0000001' },
  { source: '"tab\\t quote\\" é"', result: '"tab\t quote\\" é"' },
  { source: '"line\\nbreak"', result: '"line\\nbreak"' },
  { source: '"a" + "b"', result: '"ab"' },
  { source: '"ab" * 3', result: '"ababab"' },
  { source: 'x, err = 1 / .n; [x, err]', event: { n: 0 }, result: '[0.0, "can\'t divide by zero"]' },
  { source: 'x, err = .s + 1; err', event: { s: 'x' }, result: '"can\'t add type integer to string"' },
  { source: 'x, err = .n + "a"; err', event: { n: 1 }, result: '"can\'t add type string to integer"' },
  { source: 'x, err = .s - 1; err', event: { s: 'x' }, result: '"can\'t subtract type integer from string"' },
  {
    source: '.a = 1; .b = parse_json!(.s)',
    event: { s: '{' },
    error:
      'function call error for "parse_json" at (13:28): unable to parse json: EOF while parsing an object at line 1 column 1',
    after: '{ "a": 1, "s": "{" }',
  },
]);

table('comparison and equality', [
  { source: '1 == 1.0', result: 'true' },
  { source: '1 != 2', result: 'true' },
  { source: '"a" < "b"', result: 'true' },
  { source: '1 < 2.5', result: 'true' },
  { source: '2 >= 2', result: 'true' },
  { source: '[1, 2] == [1, 2]', result: 'true' },
  { source: '{ "a": 1 } == { "a": 1 }', result: 'true' },
  { source: '"1" == 1', result: 'false' },
  { source: 'null == null', result: 'true' },
]);

table('logic', [
  { source: 'true && false', result: 'false' },
  { source: 'false || true', result: 'true' },
  { source: '.missing || "y"', result: '"y"' },
  { source: '"a" || true', result: '"a"' },
  { source: 'null && true', result: 'false' },
  { source: '!true', result: 'false' },
  { source: '!!false', result: 'false' },
  {
    source: 'x, err = .s && true; err',
    event: { s: 'x' },
    result: '"can\'t apply an AND to types string and boolean"',
  },
]);

table('paths', [
  { source: '.a.b = 1; .', result: '{ "a": { "b": 1 } }' },
  { source: '.a[2] = 1; .a', result: '[null, null, 1]' },
  { source: '.a.b[0].c = 1; .a', result: '{ "b": [{ "c": 1 }] }' },
  { source: '.a[-1]', event: { a: [1, 2, 3] }, result: '3' },
  { source: '.a[5]', event: { a: [1] }, result: 'null' },
  { source: '."b c"', event: { 'b c': 1 }, result: '1' },
  { source: '.(x | y)', event: { y: 2 }, result: '2' },
  { source: '.a.b', event: { a: 'str' }, result: 'null' },
  { source: 'x = { "a": [1, { "b": 2 }] }; x.a[1].b', result: '2' },
  { source: '[1, 2, 3][1]', result: '2' },
  { source: '%m = 1; %m', result: '1' },
  { source: '%', result: '{}' },
  { source: 'del(.a); .', event: { a: 1, b: 2 }, result: '{ "b": 2 }' },
  { source: 'del(.a)', event: { a: 1 }, result: '1' },
  { source: 'exists(.a.b)', event: { a: { b: null } }, result: 'true' },
  { source: 'exists(.a.c)', event: { a: { b: null } }, result: 'false' },
  { source: '. = { "x": 1 }; .', event: { a: 1 }, result: '{ "x": 1 }' },
]);

table('copy on write', [
  { source: 'x = .a; .a.b = 2; x', event: { a: { b: 1 } }, result: '{ "b": 1 }' },
  { source: 'x = { "b": 1 }; .a = x; .a.b = 2; [x, .a]', result: '[{ "b": 1 }, { "b": 2 }]' },
  { source: 'y = .; .z = 1; y', event: { a: 1 }, result: '{ "a": 1 }' },
  { source: 'x = [1]; .a = x; .a[1] = 2; x', result: '[1]' },
]);

// `x = push(x, …)`, `x = append(x, …)` and `x = set(x, …)` change the value in `x` in place; whatever else
// holds it, or a part of it, keeps it.
table('changing a variable in place', [
  { source: 'a = []; for_each([1, 2, 3]) -> |_i, v| { a = push(a, v) }; a', result: '[1, 2, 3]' },
  { source: 'a = [0]; b = a; a = push(a, 1); a = push(a, 2); [a, b]', result: '[[0, 1, 2], [0]]' },
  { source: 'a = [0]; .x = a; a = push(a, 1); .x', result: '[0]' },
  { source: 'a = array!(.list); a = push(a, 9); [a, .list]', event: { list: [1] }, result: '[[1, 9], [1]]' },
  { source: 'a = [1]; a = push(a, a); a = push(a, 2); a', result: '[1, [1], 2]' },
  { source: 'a = [1]; a = append(a, a); a = append(a, [3]); a', result: '[1, 1, 3]' },
  { source: 'a = []; c = (a = push(a, 1)); a = push(a, 2); [a, c]', result: '[[1, 2], [1]]' },
  { source: 'a = [1]; f = for_each([1]) -> |_i, _v| { a = push(a, 2) }; a = push(a, 3); a', result: '[1, 2, 3]' },
  { source: 'o = {}; for_each([5, 6]) -> |i, v| { o = set!(o, [to_string(i)], v) }; o', result: '{ "0": 5, "1": 6 }' },
  { source: 'o = { "a": 1 }; p = o; o = set!(o, ["b"], 2); [o, p]', result: '[{ "a": 1, "b": 2 }, { "a": 1 }]' },
  {
    source: 'o = object!(parse_json!(s\'{"a": {"b": 1}}\')); q = o.a; o = set!(o, ["a", "c"], 2); [o, q]',
    result: '[{ "a": { "b": 1, "c": 2 } }, { "b": 1 }]',
  },
  {
    source: 'a = .s; a = push!(a, 1)',
    event: { s: 'x' },
    error: 'function call error for "push" at (12:23): expected array, got string',
  },
]);

// `.a = push(.a, …)` (also `append`, `set`, under `%` and a variable's path) changes the value at the path
// in place when the other arguments leave that path alone; whatever else holds it, a part of it, or a
// container above it keeps what it held.
table('changing a path in place', [
  { source: '.a = []; for_each([1, 2, 3]) -> |_i, v| { .a = push(.a, v) }; .a', result: '[1, 2, 3]' },
  { source: '.a = [0]; x = .a; .a = push(.a, 1); .a = push(.a, 2); [.a, x]', result: '[[0, 1, 2], [0]]' },
  {
    source: 'x = .o; .o.t = push!(.o.t, 2); [.o, x]',
    event: { o: { t: [1] } },
    result: '[{ "t": [1, 2] }, { "t": [1] }]',
  },
  { source: 'x = .; .t = push!(.t, 2); [., x]', event: { t: [1] }, result: '[{ "t": [1, 2] }, { "t": [1] }]' },
  { source: '.o.t = push!(.o.t, .o)', event: { o: { t: [1] } }, after: '{ "o": { "t": [1, { "t": [1] }] } }' },
  { source: '.t = [1]; .t = push(.t, del(.t)); .t', result: '[1, [1]]' },
  { source: "a = array!(parse_json!(s'[1, 2]')); a = push(a, del(a[0])); a", result: '[1, 2, 1]' },
  { source: "a = array!(parse_json!(s'[1, 2]')); a = append(a, [a[1], del(a[0])]); a", result: '[1, 2, 2, 1]' },
  { source: '.t = [1]; .t = push(.t, .t); .t', result: '[1, [1]]' },
  { source: '.t = [5, 6]; .t = push(.t, { .t[0] = 7; 1 }); .t', result: '[5, 6, 1]' },
  { source: '.a = [[1], [2]]; .a[0] = push!(.a[0], 9); .a[0] = push!(.a[1], 8); .a', result: '[[2, 8], [2]]' },
  { source: '.a = [[1], [2]]; .a[-1] = push!(.a[-1], 3); .a', result: '[[1], [2, 3]]' },
  { source: '%m = [1]; %m = push!(%m, 2); %m = append!(%m, [3]); %m', result: '[1, 2, 3]' },
  { source: 'x = { "t": [1] }; y = x; x.t = push!(x.t, 2); [x, y]', result: '[{ "t": [1, 2] }, { "t": [1] }]' },
  {
    source: '.o = {}; for_each([5, 6]) -> |i, v| { .o = set!(.o, [to_string(i)], v) }; .o',
    result: '{ "0": 5, "1": 6 }',
  },
  {
    source: '.s = push!(.s, 1)',
    event: { s: 'x' },
    error: 'function call error for "push" at (5:17): expected array, got string',
  },
  { source: '.n = push!(.n, 1)', error: 'function call error for "push" at (5:17): expected array, got null' },
]);

// `x = merge(x, from)` and `x |= from` merge into `x`'s object in place once it is 16 times `from`'s size.
const twenty = { items: Array.from({ length: 20 }, (_, i) => i) };
const fill = (target: string) =>
  `for_each(array!(.items)) -> |i, v| { ${target} = set!(${target}, [to_string(i)], v) }`;
table('merging in place', [
  {
    source: `o = {}; ${fill('o')}; p = o; o = merge(o, { "z": 1 }); [length(o), length(p), o.z, p.z]`,
    event: twenty,
    result: '[21, 20, 1, null]',
  },
  { source: `o = {}; ${fill('o')}; p = o; o |= { "z": 1 }; [length(o), length(p)]`, event: twenty, result: '[21, 20]' },
  {
    source: `.o = {}; ${fill('.o')}; q = .o; .o |= { "z": 1 }; [length!(.o), length(q)]`,
    event: twenty,
    result: '[21, 20]',
  },
  { source: `.o = {}; ${fill('.o')}; .o |= { "z": .o."3" }; [length!(.o), .o.z]`, event: twenty, result: '[21, 3]' },
  {
    source: `x = {}; ${fill('x')}; y = { "k": x }; x |= { "z": 1 }; [length(x), length!(y.k)]`,
    event: twenty,
    result: '[21, 20]',
  },
  {
    source: `o = {}; ${fill('o')}; f = { "1": "one" }; o = merge(o, f); f = set!(f, ["1"], "uno"); [o."1", f."1"]`,
    event: twenty,
    result: '["one", "uno"]',
  },
  {
    source: 'o = {}; for_each([1, 2]) -> |i, v| { o = merge(o, set!({}, [to_string(i)], v)) }; o',
    result: '{ "0": 1, "1": 2 }',
  },
  {
    source: 'o = { "a": { "x": 1 } }; o = merge(o, { "a": { "y": 2 } }, deep: true); o',
    result: '{ "a": { "x": 1, "y": 2 } }',
  },
  { source: '.o = { "a": 1 }; .o |= .o; .o', result: '{ "a": 1 }' },
  // What `from` deletes is still in `x` as it was before the merge; what it reads of `x` is as it was.
  {
    source: `o = {}; ${fill('o')}; o |= { "z": del(o."3") }; [length(o), o."3", o.z]`,
    event: twenty,
    result: '[21, 3, 3]',
  },
  {
    source: `.o = {}; ${fill('.o')}; .o |= { "z": del(.o."3") }; [length!(.o), .o."3", .o.z]`,
    event: twenty,
    result: '[21, 3, 3]',
  },
  {
    source: `.o = {}; ${fill('.o')}; .o |= { "up": . }; [length!(.o), length!(.o.up.o)]`,
    event: twenty,
    result: '[21, 20]',
  },
  { source: `${fill('.')}; . |= { "copy": . }; [length(.), length!(.copy)]`, event: twenty, result: '[22, 21]' },
  { source: `${fill('.')}; . |= { "z": ."4" }; [length(.), .z]`, event: twenty, result: '[22, 4]' },
  {
    source: 'o = {}; o = merge!(o, .s)',
    event: { s: 'x' },
    error: 'function call error for "merge" at (12:25): expected object, got string',
  },
]);

// Concatenation grows the newest result in place; the shorter strings others hold keep their text.
table('concatenating in place', [
  { source: 's = ""; for_each([1, 2, 3]) -> |_i, v| { s = s + to_string(v) }; s', result: '"123"' },
  {
    source: 'a = "x" + "y"; b = a + "1"; c = a + "2"; d = b + "3"; [a, b, c, d]',
    result: '["xy", "xy1", "xy2", "xy13"]',
  },
  {
    source:
      's = "a"; for_each([1, 2, 3, 4]) -> |_i, v| { s = s + to_string(v) }; t = s; s = s + "!"; u = t + "?"; [s, t, u]',
    result: '["a1234!", "a1234", "a1234?"]',
  },
  { source: '.s = "q"; .s = .s + "r"; .s = .s + .s; .s', result: '"qrqr"' },
]);

// Copying the value on each turn would hold ~800 MB of copies by the end of this event.
test('a loop adding 20,000 items to an array, an object or a string fits in 64 MiB', async () => {
  const items = Array.from({ length: 20_000 }, (_, i) => i);
  const loops: Array<[string, bigint]> = [
    ['a = []\nfor_each(array!(.items)) -> |_i, v| { a = push(a, v) }\n.n = length(a)', 20_000n],
    ['o = {}\nfor_each(array!(.items)) -> |i, v| { o = set!(o, [to_string(i)], v) }\n.n = length(o)', 20_000n],
    ['.f = []\nfor_each(array!(.items)) -> |_i, v| { .f = push!(.f, v) }\n.n = length!(.f)', 20_000n],
    [
      'o = {}\nfor_each(array!(.items)) -> |i, v| { o = merge(o, set!({}, [to_string(i)], v)) }\n.n = length(o)',
      20_000n,
    ],
    [
      's = ""\nfor_each(array!(.items)) -> |_i, v| { s = s + to_string!(v) + "," }\n.n = strlen(s)',
      BigInt(items.join(',').length + 1),
    ],
  ];
  for (const [source, n] of loops) {
    const program = await compile(source, { memoryLimit: 64 * 1024 * 1024 });
    assert.equal((program.run({ items }).event as { n: bigint }).n, n, source);
  }
});

// A constant array is the same on every run: appending to the variable holding it copies it first.
test("appending in place leaves the program's constants alone from one event to the next", async () => {
  const program = await compile('a = [0]\na = push(a, .n)\n.a = a\nb = [[1]]\nc = b[0]\nc = push(c, .n)\n.b = b');
  for (const n of [1n, 2n, 3n]) assert.equal(program.run({ n }).event, { n, a: [0n, n], b: [[1n]] });
  const field = await compile('.a = [0]\n.a = push(.a, .n)\n%m = [[1]]\n%m[0] = push!(%m[0], .n)\n.m = %m');
  for (const n of [1n, 2n, 3n]) assert.equal(field.run({ n }).event, { n, a: [0n, n], m: [[1n, n]] });
});

table('assignment forms', [
  { source: 'x = 1; x', result: '1' },
  { source: 'x = y = 2; [x, y]', result: '[2, 2]' },
  {
    source: 'x, err = parse_json("{"); [x, err]',
    result:
      '[null, "function call error for \\"parse_json\\" at (9:24): unable to parse json: EOF while parsing an object at line 1 column 1"]',
  },
  { source: 'x, err = to_int("7"); [x, err]', result: '[7, null]' },
  { source: 'x, err = to_int("a"); x', result: '0' },
  { source: '.a = { "c": 2 }; .a |= { "b": 1 }; .a', result: '{ "b": 1, "c": 2 }' },
  { source: '. |= { "b": 1 }', event: { a: 1 }, after: '{ "a": 1, "b": 1 }' },
  { source: '{ "a": 1 } | { "a": 2, "b": 3 }', result: '{ "a": 2, "b": 3 }' },
]);

table('control flow', [
  { source: 'if true { 1 } else { 2 }', result: '1' },
  { source: 'if false { 1 }', result: 'null' },
  { source: 'if false { 1 } else if true { 2 } else { 3 }', result: '2' },
  { source: '{ 1; 2 }', result: '2' },
  { source: '(1 + 2) * 3', result: '9' },
  { source: 'parse_json("x") ?? "fallback"', result: '"fallback"' },
  { source: 'parse_json("1") ?? "fallback"', result: '1' },
  { source: '.a = 1; abort', error: 'aborted', after: '{ "a": 1 }' },
  { source: '.a = 1; abort "stop " + "now"', error: 'stop now', after: '{ "a": 1 }' },
  { source: 'if true { abort }; 1', error: 'aborted' },
  { source: '.a = 1; return 5; .b = 2', result: '5', after: '{ "a": 1 }' },
  {
    source: 'parse_json!("{ INVALID }")',
    error:
      'function call error for "parse_json" at (0:26): unable to parse json: key must be a string at line 1 column 3',
  },
  {
    source: '\nparse_json!("{ INVALID }")',
    error:
      'function call error for "parse_json" at (1:27): unable to parse json: key must be a string at line 1 column 3',
  },
]);

table('closures', [
  { source: 'n = 0; for_each([1, 2, 3]) -> |i, v| { n = n + i + v }; n', result: '9' },
  { source: 'keys = []; for_each({ "b": 1, "a": 2 }) -> |k, _v| { keys = push(keys, k) }; keys', result: '["a", "b"]' },
  // A variable's compile-time value holds where the checker reads it, not on the closure's next run.
  {
    source:
      'f = "%Y"; out = []; for_each([1, 2]) -> |_i, _v| { out = push(out, format_timestamp!(t\'2021-02-03T00:00:00Z\', f)); f = "%m" }; out',
    result: '["2021", "02"]',
  },
  { source: 'filter([1, 2, 3]) -> |_i, v| { v != 2 }', result: '[1, 3]' },
  { source: 'filter({ "a": 1, "b": 2 }) -> |k, _v| { k == "b" }', result: '{ "b": 2 }' },
  { source: 'map_values({ "a": 1, "b": 2 }) -> |v| { v * 10 }', result: '{ "a": 10, "b": 20 }' },
  {
    source: 'map_values({ "a": { "b": 1 } }, recursive: true) -> |v| { if is_integer(v) { int!(v) + 1 } else { v } }',
    result: '{ "a": { "b": 2 } }',
  },
  {
    source: 'map_keys({ "a": 1, "b": { "c": 2 } }, recursive: true) -> |k| { upcase(k) }',
    result: '{ "A": 1, "B": { "C": 2 } }',
  },
  { source: 'map_values([1, 2]) -> |v| { v + 1 }', result: '[2, 3]' },
  { source: 'replace_with("a1b22", r\'\\d+\') -> |m| { "<" + m.string + ">" }', result: '"a<1>b<22>"' },
  { source: 'replace_with("aaa", r\'a\', count: 2) -> |_m| { "b" }', result: '"bba"' },
  { source: 'for_each([1]) -> |_i, _v| { abort "inside" }', error: 'inside' },
  { source: 'map_values({ "a": 1 }) -> |_v| { abort "deep" }', error: 'deep' },
]);

test.run();
