import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = join(root, 'dist/bin/svc.js');

/** Runs `svc` in the project root, with stderr not a terminal, SVC_COLOR and RUST_BACKTRACE unset. */
function svc(args: string[], env: Record<string, string> = {}) {
  const { SVC_COLOR: _, RUST_BACKTRACE: __, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [main, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...inherited, ...env },
    maxBuffer: 64 << 20,
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

test('without input the program runs once on {} and prints its result', () => {
  const { status, stdout, stderr } = svc(['vrl', '.status = 200\n.message = upcase("ok")']);
  assert.is(stdout, '"OK"\n');
  assert.is(stderr, '');
  assert.is(status, 0);
});

test("timestamps over chrono's whole range print as VRL prints them", () => {
  assert.equal(svc(['vrl', "t'9999-12-31T23:59:59Z'"]), { status: 0, stdout: "t'9999-12-31T23:59:59Z'\n", stderr: '' });
  const program = [
    "[t'0001-01-01T00:00:00Z', t'0000-01-01T00:00:00+01:00', t'9999-12-31T23:59:59.5-01:00',",
    'from_unix_timestamp!(8210266876799), from_unix_timestamp!(-8334601228800),',
    'to_unix_timestamp(from_unix_timestamp!(-8334601228800)),',
    'format_timestamp!(parse_timestamp!("+262142-12-31 23:59:59", "%Y-%m-%d %H:%M:%S"), "%Y %+")]',
  ].join(' ');
  const { status, stdout } = svc(['vrl', program]);
  assert.is(
    stdout,
    "[t'0001-01-01T00:00:00Z', t'-0001-12-31T23:00:00Z', t'+10000-01-01T00:59:59.500Z', " +
      "t'+262142-12-31T23:59:59Z', t'-262143-01-01T00:00:00Z', -8334601228800, " +
      '"+262142 +262142-12-31T23:59:59+00:00"]\n',
  );
  assert.is(status, 0);
});

test('-o prints the event; -i runs every line of a file', () => {
  const input = programFile('events.ndjson', '{"a":1}\n{"a":2,"b":"x"}\n\n{"a":3}\n');
  const { status, stdout } = svc(['vrl', '-o', '-i', input, '.a = to_int!(.a) * 10']);
  assert.is(stdout, '{ "a": 10 }\n{ "a": 20, "b": "x" }\n{ "a": 30 }\n');
  assert.is(status, 0);
});

test('a runtime error goes to stderr with its input line and the next events still run', () => {
  const input = programFile('mixed.ndjson', '{"n":"1"}\n{"n":"x"}\n{"n":"3"}\n');
  const { status, stdout, stderr } = svc(['vrl', '-i', input, 'to_int!(.n)']);
  assert.is(stdout, '1\n3\n');
  assert.is(
    stderr,
    'line 2: function call error for "to_int" at (0:11): Invalid integer "x": invalid digit found in string\n',
  );
  assert.is(status, 0);
});

test('lines that straddle the megabyte pieces a file is read in all run, in order', () => {
  // Lines of odd lengths cross the piece boundaries at varying offsets; one line spans more than a piece.
  const lines = Array.from({ length: 30000 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i % 97) }));
  lines.splice(12345, 0, JSON.stringify({ i: -1, pad: 'y'.repeat(1.5 * 2 ** 20) }));
  const input = programFile('large.ndjson', lines.join('\n'));
  const { status, stdout } = svc(['vrl', '-i', input, 'length!(.pad)']);
  assert.is(stdout, lines.map((line) => String((JSON.parse(line) as { pad: string }).pad.length)).join('\n') + '\n');
  assert.is(status, 0);
});

test('errors name their line across the pieces a file is read in, blank lines counted', () => {
  // About 3 MB: errors fall in every piece; blank lines and a last line without its newline count too.
  const lines = Array.from({ length: 40000 }, (_, i) =>
    i % 7 === 3 ? '' : i % 4999 === 17 ? '{"n":"x"}' : `{"n":${i},"pad":"${'p'.repeat(i % 61)}"}`,
  );
  const input = programFile('numbered.ndjson', lines.join('\n') + '\n{"n":"y"}');
  const { stdout, stderr } = svc(['vrl', '-i', input, 'to_int!(.n)']);
  const failed = [...lines.flatMap((line, i) => (line.includes('"x"') ? [i + 1] : [])), lines.length + 1];
  assert.equal(
    stderr
      .trimEnd()
      .split('\n')
      .map((line) => Number(/^line (\d+):/.exec(line)?.[1])),
    failed,
  );
  assert.is(
    stdout.split('\n').length - 1,
    lines.filter((line) => line.startsWith('{"n":') && !line.includes('"x"')).length,
  );
});

test('a large input gives the same output, errors, log lines and skipped lines on several threads as on one', () => {
  // About 5 MB, read in pieces that run on the worker threads and on the main one; the long lines are skipped.
  const lines = Array.from({ length: 50000 }, (_, i) =>
    i % 9 === 4
      ? ''
      : i % 7919 === 11
        ? `{"n":${i},"pad":"${'L'.repeat(400)}"}`
        : i % 3001 === 7
          ? '{"n":"x"}'
          : `{"n":${i},"pad":"${'p'.repeat(i % 83)}"}`,
  );
  const input = programFile('threads.ndjson', lines.join('\n'));
  const program =
    'if mod(to_int!(.n), 1000) == 0 { log(to_int!(.n), level: "warn", rate_limit_secs: 0) }\n.n = to_int!(.n) * 2';
  const run = (threads: string) =>
    svc(['vrl', '-o', '--threads', threads, '--max-line-bytes', '300', '-i', input, program]);
  const one = run('1');
  assert.ok(
    one.stderr.includes('line 8: function call error') && one.stderr.includes('warn: 48000'),
    one.stderr.slice(0, 300),
  );
  assert.ok(
    one.stderr.includes('line 12: the line is longer than 300 bytes') && one.stderr.includes('line 47526: the line'),
  );
  assert.is(
    one.stdout.split('\n').length - 1,
    lines.filter((line) => line.startsWith('{"n":') && !line.includes('"x"') && !line.includes('L')).length,
  );
  assert.equal(run('3'), one);
});

test('an invalid --threads is a usage error', () => {
  for (const value of ['0', '-1', '1.5', 'many']) {
    const { status, stderr } = svc(['vrl', `--threads=${value}`, '.']);
    assert.match(stderr, /^svc: invalid --threads '.*': expected a positive whole number of threads\n$/);
    assert.is(status, 64);
  }
});

test('-i - reads stdin', () => {
  const result = spawnSync(process.execPath, [main, 'vrl', '-i', '-', '.x'], {
    cwd: root,
    encoding: 'utf8',
    input: '{"x":[1]}\n',
  });
  assert.is(result.stdout, '[1]\n');
});

test('-i - reads stdin that another process left non-blocking', async () => {
  // Python (when there is one: Node gives its children blocking stdio) sets O_NONBLOCK and becomes svc.
  // The second line comes only after the first one's output: the read in between finds none (EAGAIN).
  if (spawnSync('python3', ['-c', '']).status !== 0) return;
  const nonBlocking =
    'import fcntl, os, sys; fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_NONBLOCK); os.execv(sys.argv[1], sys.argv[1:])';
  const child = spawn('python3', ['-c', nonBlocking, process.execPath, main, 'vrl', '-i', '-', '.x'], { cwd: root });
  let [stdout, stderr] = ['', ''];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout === '1\n') child.stdin.end('{"x":2}\n');
  });
  child.stdin.write('{"x":1}\n');
  const status = await new Promise((resolve) => child.on('close', resolve));
  assert.is(stderr, '');
  assert.is(stdout, '1\n2\n');
  assert.is(status, 0);
});

test('the example program runs on the example events', () => {
  const { status, stdout, stderr } = svc(['vrl', '-o', '-p', 'examples/start.vrl', '-i', 'examples/start.ndjson']);
  assert.is(stderr, '');
  assert.is(stdout.trim().split('\n').length, 4);
  assert.match(stdout, /"severity": "err"/);
  assert.is(status, 0);
});

test('--emit-wasm writes a module that --module runs; without a file it prints the text form', () => {
  const wasm = join(scratch, 'program.wasm');
  assert.is(svc(['vrl', '--emit-wasm', wasm, '.b = to_int!(.a) + 1']).status, 0);
  const input = programFile('one.ndjson', '{"a":41}\n');
  const { status, stdout } = svc(['vrl', '-o', '--module', wasm, '-i', input]);
  assert.is(stdout, '{ "a": 41, "b": 42 }\n');
  assert.is(status, 0);
  const text = svc(['vrl', '.b = 1', '--emit-wasm']);
  assert.match(text.stdout, /^\(module/);
  assert.match(text.stdout, /\(func \$svc_init/);
  assert.match(text.stdout, /\(export "run_batch"/);
});

test('a module not from svc is refused', () => {
  const bogus = join(scratch, 'bogus.wasm');
  writeFileSync(bogus, Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  const { status, stderr } = svc(['vrl', '--module', bogus]);
  assert.is(
    stderr,
    `svc: cannot load module file '${bogus}': not a compiled remap module: it has no "svc" custom section\n`,
  );
  assert.is(status, 70);
});

test('the REPL keeps variables and the event between lines and answers help', () => {
  const result = spawnSync(process.execPath, [main, 'vrl'], {
    cwd: root,
    encoding: 'utf8',
    input: 'help\nx = 1\nx + 1\n.a = x\n.\nupcase(1)\nparse_json!("{")\nx\n',
  });
  const lines = result.stdout.split('\n');
  assert.ok(lines[0]!.startsWith('Remap REPL'), lines[0]);
  assert.ok(result.stdout.includes('1\n2\n1\n{ "a": 1 }\n'), result.stdout);
  assert.ok(result.stdout.includes('error[E110]: invalid argument type'), result.stdout);
  assert.ok(
    result.stdout.includes(
      'error: function call error for "parse_json" at (0:16): unable to parse json: EOF while parsing an object at line 1 column 1',
    ),
    result.stdout,
  );
  assert.ok(result.stdout.trimEnd().endsWith('\n1'), result.stdout);
  assert.is(result.status, 0);
});

test('the REPL moves between events with next and prev; variables stay', () => {
  const result = spawnSync(process.execPath, [main, 'vrl'], {
    cwd: root,
    encoding: 'utf8',
    input: 'prev\n.a = 1\nx = 5\nnext\n.\n.b = x\nprev\n.\nnext\n.\n',
  });
  assert.is(result.stdout, 'no previous event\n1\n5\n{}\n5\n{ "a": 1 }\n{ "b": 5 }\n');
  assert.is(result.status, 0);
});

test('a program with an error prints the rendered diagnostic and exits 70 (EX_SOFTWARE, as Vector)', () => {
  const { status, stdout, stderr } = svc(['vrl', '\n"foo" ?? "bar"']);
  assert.is(stderr, UNNECESSARY_COALESCING);
  assert.is(stdout, '');
  assert.is(status, 70);
});

test('--program reads the program from a file', () => {
  const { status, stderr } = svc(['vrl', '--program', programFile('coalesce.vrl', '\n"foo" ?? "bar"')]);
  assert.is(stderr, UNNECESSARY_COALESCING);
  assert.is(status, 70);
});

test('warnings are printed and the program still runs', () => {
  const { status, stdout, stderr } = svc(['vrl', '.a = to_string!(1)']);
  assert.match(stderr, /^warning\[E620\]: can't abort infallible function$/m);
  assert.is(stdout, '"1"\n');
  assert.is(status, 0);
});

test('a missing program file exits 66 (EX_NOINPUT)', () => {
  const { status, stderr } = svc(['vrl', '-p', 'no/such/program.vrl']);
  assert.is(stderr, "svc: cannot read program file 'no/such/program.vrl': no such file\n");
  assert.is(status, 66);
});

test('a missing input file exits 66 (EX_NOINPUT)', () => {
  const { status, stderr } = svc(['vrl', '-i', 'no/such/events.ndjson', '.']);
  assert.is(stderr, "svc: cannot read input file 'no/such/events.ndjson': no such file\n");
  assert.is(status, 66);
});

test('a program both as argument and file is a usage error', () => {
  const { status, stderr } = svc(['vrl', '-p', 'examples/start.vrl', '.a = 1']);
  assert.is(stderr, 'svc: give the program either as an argument or with --program, not both\n');
  assert.is(status, 64);
});

test('input without a program is a usage error', () => {
  const { status, stderr } = svc(['vrl', '-i', 'examples/start.ndjson']);
  assert.is(stderr, 'svc: no program: pass its text as an argument or a file with --program <file>\n');
  assert.is(status, 64);
});

test('an unknown time zone is a usage error', () => {
  const { status, stderr } = svc(['vrl', '--timezone', 'Mars/Olympus', '.']);
  assert.match(stderr, /^svc: unknown time zone 'Mars\/Olympus'/);
  assert.is(status, 64);
});

test('a known time zone is accepted', () => {
  const { status } = svc(['vrl', '--timezone', 'Europe/Paris', '.']);
  assert.is(status, 0);
});

test('an unknown option is a usage error', () => {
  const { status, stderr } = svc(['vrl', '--frobnicate', '.']);
  assert.is(stderr, 'svc: Unknown option `--frobnicate`\n');
  assert.is(status, 64);
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
  assert.is(status, 64);
});

test('vrl --help documents every option and what this version does', () => {
  const { status, stdout } = svc(['vrl', '--help']);
  for (const option of [
    '--program <file>',
    '--input [file]',
    '--print-object',
    '--timezone <zone>',
    '--emit-wasm [file]',
    '--module <file>',
    '--max-line-bytes <bytes>',
    '--threads <count>',
    '--verbose',
    '--color <when>',
  ]) {
    assert.ok(stdout.includes(option), `help lacks ${option}`);
  }
  assert.match(stdout, /A runtime error goes to stderr/);
  assert.is(status, 0);
});

test('the bundled svc finds the logstash pattern files parse_grok reads on first use', () => {
  const result = svc([
    'vrl',
    'parse_grok!("[4018] 14 Nov 07:01:22.119 * Background saving terminated with success", "%{REDISLOG}")',
  ]);
  assert.equal(
    { stdout: result.stdout, status: result.status },
    { stdout: '{ "pid": "4018", "timestamp": "14 Nov 07:01:22.119" }\n', status: 0 },
  );
});

test.run();
