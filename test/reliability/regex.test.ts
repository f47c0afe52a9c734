// Issue 8: regex matching takes time linear in the input on every path, as Rust's regex does. Patterns that
// make a backtracking engine explode, on inputs of 30 to 10,000 characters, complete and give VRL's results;
// via the library API and via `svc vrl`, where the events around the hostile one come out too. Each run is a
// child process killed after 20 s: a kill is a hang, not a slow pass (no timing is asserted).

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const HANG = 20_000;

interface Case {
  program: string;
  input: string;
  expected: unknown;
}

const a = (n: number) => 'a'.repeat(n);

/** Catastrophic for a backtracker on inputs that almost match. */
const CASES: Case[] = [
  ...[30, 1000, 10_000].flatMap((n): Case[] => [
    { program: `replace!(.m, r'^(a+)+$', "X")`, input: `${a(n)}!`, expected: `${a(n)}!` },
    { program: `replace!(.m, r'^(a+)+$', "X")`, input: a(n), expected: 'X' },
    { program: `match!(.m, r'(a|aa)+$')`, input: `${a(n)}b`, expected: false },
    { program: `match!(.m, r'^(\\w+\\s?)*$')`, input: `${a(n)}!`, expected: false },
    { program: `parse_regex!(.m, r'(?P<x>(a|a?)+)b')`, input: a(n), expected: 'error' },
    { program: `length(split!(.m, r'(.*a){12}x'))`, input: a(n), expected: 1 },
    { program: `length(parse_regex_all!(.m, r'(a*)*c'))`, input: a(n), expected: 0 },
    { program: `find!(.m, r'(x+x+)+y')`, input: 'x'.repeat(n), expected: null },
    // VRL's fixed log regexes run on the same engine (lazy groups between `\s+`: polynomial when backtracking).
    { program: `parse_common_log!(.m)`, input: ' '.repeat(n), expected: 'error' },
    // parse_cef's value scans (were `/ +$/` and `/(?:^|[^\\])(?:\\\\)*=/`: quadratic when backtracking).
    { program: `length(string!(parse_cef!(.m).k))`, input: `CEF:0|a|b|c|d|e|f|k=v${' '.repeat(n)}x`, expected: n + 2 },
    {
      program: `length(string!(parse_cef!(.m).k))`,
      input: `CEF:0|a|b|c|d|e|f|k=${'\\'.repeat(n)}x`,
      expected: n / 2 + 1,
    },
    // Query wildcards: `*` is a run of anything (polynomial in the number of stars when backtracking).
    { program: `match_datadog_query(., "@m:*a*a*a*a*a*a*b")`, input: a(n), expected: false },
    { program: `match_datadog_query(., "*a*a*a*a*a*a*b")`, input: a(n), expected: false },
    // Grok patterns without look-around run on the linear-time engine too.
    { program: `parse_grok!(.m, "^(?:%{USERNAME:user} ?)+$")`, input: `${a(n)}!`, expected: 'error' },
    { program: `parse_grok!(.m, "^(?:%{USERNAME:user} ?)+$")`, input: a(n), expected: { user: a(n) } },
    { program: `parse_grok!(.m, "(?<x>(a|a?)+)b")`, input: a(n), expected: 'error' },
    // Grok patterns with look-around (QUOTEDSTRING: `(?<!\\)` and nested repetition) run on the regex VM.
    { program: `parse_grok!(.m, "%{QUOTEDSTRING:q}")`, input: `"${a(n)}`, expected: 'error' },
    {
      program: `parse_grok!(.m, "%{QUOTEDSTRING:q} %{NUMBER:n}")`,
      input: `x"${a(n)}" 1.5`,
      expected: { n: '1.5', q: `"${a(n)}"` },
    },
    // One-pass and anchored: runs on V8's engine, still linear.
    { program: `parse_regex!(.m, r'^(?P<head>\\S+) (?P<tail>\\S+)$')`, input: `${a(n)}`, expected: 'error' },
  ]),
];

/** Runs the cases through the library API in a child process; returns each outcome. */
function throughLibrary(cases: readonly Case[]) {
  const script = `
    const { compile } = await import(${JSON.stringify(join(root, 'dist/runtime/index.js'))});
    const { readFileSync } = await import('node:fs');
    const cases = JSON.parse(readFileSync(0, 'utf8'));
    const out = [];
    for (const c of cases) {
      const program = await compile(c.program);
      try { out.push(program.run({ m: c.input }).result); } catch (e) { out.push('error'); }
    }
    console.log(JSON.stringify(out, (_, v) => (typeof v === 'bigint' ? Number(v) : v)));`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    timeout: HANG,
    maxBuffer: 1 << 26,
    input: JSON.stringify(cases),
  });
}

test('hostile patterns complete through the library API with VRL results', () => {
  const result = throughLibrary(CASES);
  assert.is(result.signal, null, 'killed: a regex hung');
  assert.is(result.status, 0, result.stderr);
  const results = JSON.parse(result.stdout) as unknown[];
  const wrong = CASES.filter((c, i) => JSON.stringify(results[i]) !== JSON.stringify(c.expected));
  assert.equal(
    wrong.map((c) => `${c.program} on ${c.input.length} chars`),
    [],
  );
});

test('svc vrl: a hostile event between good ones, every event comes out', () => {
  const program = `.r = replace(string!(.m), r'^(a+)+$', "X")`;
  const events = ['good', `${a(10_000)}!`, a(30), 'also good'].map((m) => JSON.stringify({ m }));
  const result = spawnSync(process.execPath, [join(root, 'dist/bin/svc.js'), 'vrl', '-o', '-i', '-', program], {
    cwd: root,
    encoding: 'utf8',
    timeout: HANG,
    input: `${events.join('\n')}\n`,
    maxBuffer: 1 << 26,
  });
  assert.is(result.signal, null, 'killed: a regex hung');
  assert.is(result.status, 0, result.stderr);
  const out = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { r: string });
  // Compared by length: a 10,000-character string would flood the report.
  assert.equal(
    out.map((e) => e.r.length),
    ['good', `${a(10_000)}!`, 'X', 'also good'].map((r) => r.length),
  );
  assert.is(out[2]!.r, 'X');
});

test.run();
