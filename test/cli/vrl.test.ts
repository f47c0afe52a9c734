import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = join(root, 'dist/cli/main.js');

/** Runs `svc` in the project root, with stderr not a terminal and SVC_COLOR unset. */
function svc(args: string[], env: Record<string, string> = {}) {
  const { SVC_COLOR: _, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [main, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...inherited, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const scratch = mkdtempSync(join(tmpdir(), 'svc-cli-test-'));
function programFile(name: string, source: string): string {
  const path = join(scratch, name);
  writeFileSync(path, source);
  return path;
}

const ANSI = /\x1b\[[0-9;]*m/;

// The rendered form of /work/shared/DESIGN.md §6 (the program starts with a blank line).
const UNNECESSARY_COALESCING = `error[E651]: unnecessary error coalescing operation
  ┌─ :2:1
  │
2 │ "foo" ?? "bar"
  │ ^^^^^ -- ----- this expression never resolves
  │ │     │
  │ │     remove this error coalescing operation
  │ this expression can't fail
  │
  = see language documentation at https://vrl.dev
  = try your code in the VRL REPL, learn more at https://vrl.dev/examples
`;

test('a program that compiles exits 0 and says so on stderr', () => {
  const { status, stdout, stderr } = svc(['vrl', '.status = 200\n.message = upcase("ok")']);
  assert.is(stderr, 'program compiles\n');
  assert.is(stdout, '');
  assert.is(status, 0);
});

test('the example program compiles', () => {
  const { status, stderr } = svc(['vrl', '-p', 'examples/start.vrl']);
  assert.is(stderr, 'program compiles\n');
  assert.is(status, 0);
});

test('a program with an error prints the rendered diagnostic and exits 1', () => {
  const { status, stdout, stderr } = svc(['vrl', '\n"foo" ?? "bar"']);
  assert.is(stderr, UNNECESSARY_COALESCING);
  assert.is(stdout, '');
  assert.is(status, 1);
});

test('--program reads the program from a file', () => {
  const { status, stderr } = svc(['vrl', '--program', programFile('coalesce.vrl', '\n"foo" ?? "bar"')]);
  assert.is(stderr, UNNECESSARY_COALESCING);
  assert.is(status, 1);
});

test('warnings are printed and the program still compiles', () => {
  const { status, stderr } = svc(['vrl', '.a = to_string!(1)']);
  assert.match(stderr, /^warning\[E620\]: can't abort infallible function$/m);
  assert.match(stderr, /^program compiles with 1 warning\n$/m);
  assert.is(status, 0);
});

test('a missing program file is a usage error', () => {
  const { status, stderr } = svc(['vrl', '-p', 'no/such/program.vrl']);
  assert.is(stderr, "svc: cannot read program file 'no/such/program.vrl': no such file\n");
  assert.is(status, 2);
});

test('a missing input file is a usage error', () => {
  const { status, stderr } = svc(['vrl', '-i', 'no/such/events.ndjson', '.']);
  assert.is(stderr, "svc: cannot read input file 'no/such/events.ndjson': no such file\n");
  assert.is(status, 2);
});

test('a program both as argument and file is a usage error', () => {
  const { status, stderr } = svc(['vrl', '-p', 'examples/start.vrl', '.a = 1']);
  assert.is(stderr, 'svc: give the program either as an argument or with --program, not both\n');
  assert.is(status, 2);
});

test('no program at all is a usage error', () => {
  const { status, stderr } = svc(['vrl']);
  assert.is(stderr, 'svc: no program: pass its text as an argument or a file with --program <file>\n');
  assert.is(status, 2);
});

test('an unknown time zone is a usage error', () => {
  const { status, stderr } = svc(['vrl', '--timezone', 'Mars/Olympus', '.']);
  assert.match(stderr, /^svc: unknown time zone 'Mars\/Olympus'/);
  assert.is(status, 2);
});

test('a known time zone is accepted', () => {
  const { status } = svc(['vrl', '--timezone', 'Europe/Paris', '.']);
  assert.is(status, 0);
});

test('an unknown option is a usage error', () => {
  const { status, stderr } = svc(['vrl', '--frobnicate', '.']);
  assert.is(stderr, 'svc: Unknown option `--frobnicate`\n');
  assert.is(status, 2);
});

test('colors: off when stderr is not a terminal, on with --color always or SVC_COLOR=always', () => {
  assert.not.match(svc(['vrl', '\n"foo" ?? "bar"']).stderr, ANSI);
  assert.match(svc(['vrl', '--color', 'always', '\n"foo" ?? "bar"']).stderr, ANSI);
  assert.match(svc(['vrl', '\n"foo" ?? "bar"'], { SVC_COLOR: 'always' }).stderr, ANSI);
  assert.not.match(svc(['vrl', '--color', 'never', '\n"foo" ?? "bar"'], { SVC_COLOR: 'always' }).stderr, ANSI);
});

test('an invalid --color is a usage error', () => {
  const { status, stderr } = svc(['vrl', '--color', 'sometimes', '.']);
  assert.is(stderr, "svc: invalid --color 'sometimes': expected one of always, auto, never\n");
  assert.is(status, 2);
});

test('vrl --help documents every option and what this version does', () => {
  const { status, stdout } = svc(['vrl', '--help']);
  for (const option of ['--program <file>', '--input <file>', '--print-object', '--timezone <zone>', '--color <when>']) {
    assert.ok(stdout.includes(option), `help lacks ${option}`);
  }
  assert.match(stdout, /checks programs without running them/);
  assert.is(status, 0);
});

test.run();
