// The compiler answers with diagnostics, never with a stack overflow or an exhausted heap: programs nested
// past the documented depth, programs past the size limit, assignments at huge array indexes, long programs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkProgram } from '../../compiler/compile.js';
import { CompileError } from '../../compiler/diagnostics/diagnostic.js';
import { parse } from '../../compiler/parse/index.js';
import { MAX_NESTING_DEPTH, MAX_SOURCE_BYTES } from '../../compiler/parse/limits.js';
import { compile } from '../../runtime/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = join(root, 'dist/bin/svc.js');
const heavy = process.env.SVC_HEAVY_TESTS === '1';

/** Kills a child that hangs; no test relies on how fast it is. */
const KILL_AFTER_MS = 60_000;

const scratch = mkdtempSync(join(tmpdir(), 'svc-compiler-test-'));

/** Runs `svc vrl` on a program file, with stderr not a terminal and SVC_COLOR unset. */
function svcVrl(program: string) {
  const file = join(scratch, 'program.vrl');
  writeFileSync(file, program);
  const { SVC_COLOR: _, ...env } = process.env;
  const result = spawnSync(process.execPath, [main, 'vrl', '-p', file], {
    cwd: root,
    encoding: 'utf8',
    timeout: KILL_AFTER_MS,
    env,
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a module script in a fresh process (a cold stack: its frames are larger than after warm-up). */
function fresh(script: string) {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    timeout: KILL_AFTER_MS,
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

function diagnosticOf(source: string) {
  try {
    checkProgram(source);
  } catch (error) {
    if (error instanceof CompileError) return error.diagnostics[0];
    throw error;
  }
  return undefined;
}

const nestedObjects = (n: number) => '{"a": '.repeat(n) + '1' + ' }'.repeat(n);
const nestedCalls = (n: number) => 'to_string('.repeat(n) + '1' + ')'.repeat(n);
const elseIfs = (n: number) =>
  'if .a == 0 { 0 }' + Array.from({ length: n }, (_, i) => ` else if .a == ${i + 1} { ${i + 1} }`).join('');
const operators = (n: number) => Array.from({ length: n + 1 }, () => '1').join(' + ');

/** Lines like a large hand-written program: assignments with error coalescing, variables, if/else. */
function longProgram(lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) {
    out.push(`.f${i} = to_string(.a) ?? "x"`);
    out.push(`v${i} = upcase(string(.b) ?? "y")`);
    out.push(`if .s == ${i} { .h${i} = v${i} } else { .h${i} = .f${i} }`);
    out.push(`.k${i} = to_int(.f${i}) ?? 0`);
  }
  return out.slice(0, lines).join('\n');
}

test('nesting past the limit is a diagnostic at the token that goes too deep', () => {
  const source = `x = 1\n${'('.repeat(MAX_NESTING_DEPTH + 1)}x${')'.repeat(MAX_NESTING_DEPTH + 1)}`;
  const d = diagnosticOf(source)!;
  assert.is(d.code, 212);
  assert.is(d.message, 'program nested too deeply');
  const at = 6 + MAX_NESTING_DEPTH;
  assert.equal(d.labels[0]!.span, [at, at + 1]);
  assert.is(d.labels[0]!.message, `more than ${MAX_NESTING_DEPTH} levels of nesting here`);
});

test('every kind of deep nesting is refused, however deep', () => {
  const sources = [
    '('.repeat(20_000) + '1' + ')'.repeat(20_000),
    '['.repeat(20_000) + ']'.repeat(20_000),
    nestedObjects(5_000),
    nestedCalls(5_000),
    'if true { '.repeat(5_000) + '1' + ' }'.repeat(5_000),
    elseIfs(5_000),
    'x = '.repeat(20_000) + '1',
    '!'.repeat(50_000) + 'true',
    operators(50_000),
  ];
  for (const source of sources) assert.is(diagnosticOf(source)?.code, 212, source.slice(0, 40));
});

test('nesting within the limit compiles, and brackets in literals and comments do not count', () => {
  for (const source of [
    nestedObjects(MAX_NESTING_DEPTH),
    nestedCalls(MAX_NESTING_DEPTH),
    elseIfs(250),
    operators(700),
  ]) {
    assert.is(diagnosticOf(source), undefined, source.slice(0, 40));
  }
  const brackets = '('.repeat(5_000);
  assert.is(diagnosticOf(`# ${brackets}\n.a = "${brackets}"\n.b = s'${brackets}'`), undefined);
});

test('a fresh process compiles and links programs at the limit (cold frames are the largest)', () => {
  const programs = [nestedObjects(MAX_NESTING_DEPTH), nestedCalls(MAX_NESTING_DEPTH), elseIfs(250), operators(700)];
  const result = fresh(`
    import { compile } from './dist/runtime/index.js';
    for (const source of ${JSON.stringify(programs)}) await compile(source);
    console.log('compiled');
  `);
  assert.is(result.stderr, '');
  assert.is(result.stdout, 'compiled\n');
});

test('svc vrl reports deep nesting as a compile error, without a stack trace', async () => {
  const ordinary = svcVrl('upcase(1, 2, 3)');
  const deep = svcVrl('('.repeat(20_000) + '1' + ')'.repeat(20_000));
  assert.is(deep.signal, null);
  assert.is(deep.status, ordinary.status);
  assert.ok(deep.status !== 0);
  assert.is(deep.stdout, '');
  assert.match(deep.stderr, /^error\[E212\]: program nested too deeply\n/);
  assert.not.match(deep.stderr, /RangeError|\n\s+at /);
});

test('a program past the size limit is a diagnostic, before parsing', async () => {
  const literal = `.a = "${'x'.repeat(10 * 1024 * 1024)}"`;
  const error = await compile(literal).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(error, CompileError);
  const d = (error as CompileError).diagnostics[0]!;
  assert.is(d.code, 213);
  assert.is(d.message, `program too large: ${literal.length} bytes, at most ${MAX_SOURCE_BYTES} are allowed`);
  // No snippet: it would quote the whole one-line program.
  assert.ok((error as CompileError).message.length < 500);
  assert.is(diagnosticOf(longProgram(200_000))?.code, 213);
});

test('an assignment at a huge index compiles without recording every index before it', () => {
  const result = fresh(`
    import { checkProgram } from './dist/compiler/compile.js';
    checkProgram('.a[4294967297] = 1');
    checkProgram('x = []\\nx[4294967297] = 1\\nx');
    console.log('checked');
  `);
  assert.is(result.signal, null, 'killed: the check hung');
  assert.is(result.stderr, '');
  assert.is(result.stdout, 'checked\n');
});

test('diagnostics far along a line or after long runs of blanks take time linear in the program', () => {
  // End-anchored patterns (`\s+$`) retried from every blank were quadratic: these took minutes.
  const result = fresh(`
    import { checkProgram } from './dist/compiler/compile.js';
    const lines = (program, count) => { try { checkProgram(program); } catch (error) { return error.message.split('\\n').slice(0, count).join(' / '); } };
    console.log(lines('"' + 'x '.repeat(50000) + '" + undefined_variable', 2));
    console.log(lines('1' + ' '.repeat(100000) + '+', 2));
    console.log(lines('.a[' + ' '.repeat(100000), 7));
  `);
  assert.is(result.signal, null, 'killed: a diagnostic hung');
  assert.is(result.stderr, '');
  assert.is(
    result.stdout,
    [
      'error[E701]: call to undefined variable /   ┌─ :1:100006',
      'error[E204]: syntax error /   ┌─ :1:100003',
      'error[E203]: syntax error /   ┌─ :1:3 /   │ / 1 │ .a[ /   │   ^ /   │   │ /   │   unexpected end of query path',
      '',
    ].join('\n'),
  );
});

test('a long program compiles and runs', async () => {
  const program = await compile(longProgram(heavy ? 6_000 : 400));
  const { event } = program.run({ a: 1, b: 'b', s: 1 }) as { event: Record<string, unknown> };
  assert.is(event.f1, '1');
  assert.is(event.h1, 'B');
  assert.is(event.k0, 1n);
});

test('statements continued on the next line stay one statement when matched one at a time', async () => {
  const source = [
    'if .a == 1 { .r = "one" }',
    '# between',
    'else if .a == 2 {',
    '  .r = "two"',
    '}',
    'else { .r = "other" }',
    '.s = 1 +',
    '  2',
    '.t = .s *',
    '  3; .u = 4',
  ].join('\n');
  assert.is(parse(source).program?.exprs.length, 4);
  const { event } = (await compile(source)).run({ a: 2 }) as { event: Record<string, unknown> };
  assert.equal(event, { a: 2n, r: 'two', s: 3n, t: 9n, u: 4n });
});

test('the longest program under the size limit compiles', async () => {
  if (!heavy) return;
  let source = longProgram(12_000);
  source = source.slice(0, source.lastIndexOf('\n', MAX_SOURCE_BYTES));
  await compile(source);
});

test.run();
