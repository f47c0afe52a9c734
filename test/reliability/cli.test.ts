// Issue 8, the CLI's failure paths: every failure of `svc vrl` is one line `svc: <message>` with a sysexits
// status and no stack (unless RUST_BACKTRACE or -v), a reader going away ends it quietly, runtime errors
// name their input line, overlong lines are errors that cost only themselves, control characters in
// program text are rejected as VRL rejects them, and the REPL outlives whatever a line does.

import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ABI_VERSION } from '../../abi/batch.js';
import { scratchDir, svc, svcEnv, SVC_MAIN } from '../cli/support/svc.js';

const dir = scratchDir();
const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** A program and input that print one line per event, for the tests that need many events. */
const COUNTING = '.n';
const events = (count: number) => Array.from({ length: count }, (_, n) => `{"n":${n}}\n`).join('');

/** A wasm module of only a custom section `name` holding `payload`. */
function moduleWithSection(name: string, payload: string): Buffer {
  const body = Buffer.concat([Buffer.from([name.length]), Buffer.from(name), Buffer.from(payload)]);
  const size: number[] = [];
  for (let n = body.length; ; n >>= 7) {
    if (n < 0x80) {
      size.push(n);
      break;
    }
    size.push((n & 0x7f) | 0x80);
  }
  return Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0]), Buffer.from(size), body]);
}

const compiled = join(dir, 'compiled.wasm');

test('every bad --module file is one line and exit 70, nothing on stdout', () => {
  assert.is(svc(['vrl', '--emit-wasm', compiled, COUNTING]).status, 0);
  const truncated = readFileSync(compiled).subarray(0, 200);
  const foreignAbi = JSON.stringify({
    abi: ABI_VERSION + 1,
    compiler: '9.9.9',
    source: '.',
    options: {},
    jsFunctions: [],
  });
  // ABI 2: written before modules exported `runtime_state`.
  const oldAbi = JSON.stringify({ abi: 2, compiler: '0.1.0', source: '.', options: {}, jsFunctions: [] });
  // This ABI, but no code: refused when it is instantiated.
  const current = JSON.stringify({ abi: ABI_VERSION, compiler: '0.1.0', source: '.', options: {}, jsFunctions: [] });
  const cases: Array<[string, string | Uint8Array, string]> = [
    ['empty.wasm', '', 'not a compiled remap module: it is empty'],
    [
      'random.wasm',
      Buffer.from('d9f0a1c4e2b37f11223344556677', 'hex'),
      'not a compiled remap module: not WebAssembly (expected magic word 00 61 73 6d, found d9 f0 a1 c4 @+0)',
    ],
    ['truncated.wasm', truncated, 'not a compiled remap module: not WebAssembly ('],
    ['foreign.wasm', moduleWithSection('other', 'x'), 'not a compiled remap module: it has no "svc" custom section'],
    [
      'abi.wasm',
      moduleWithSection('svc', foreignAbi),
      `the module uses ABI version ${ABI_VERSION + 1} (compiled by svc 9.9.9), but this svc runs ABI version ${ABI_VERSION}: compile the program again`,
    ],
    [
      'old.wasm',
      moduleWithSection('svc', oldAbi),
      `the module uses ABI version 2 (compiled by svc 0.1.0), but this svc runs ABI version ${ABI_VERSION}: compile the program again`,
    ],
    [
      'bare.wasm',
      moduleWithSection('svc', current),
      'the module lacks the exports memory, svc_init, alloc, reset, run_batch, run_chain, run_condition, run_ndjson, output_len, errors_ptr, errors_len, ndjson_lines, failures_ptr, failures_len, arena_used, runtime_state',
    ],
    [
      'unknown.wasm',
      moduleWithSection('svc', JSON.stringify({ ...JSON.parse(current), jsFunctions: ['no_such_function'] })),
      'the module calls JS function "no_such_function", which this svc does not provide',
    ],
  ];
  for (const [name, content, reason] of cases) {
    const path = file(name, content);
    const { status, stdout, stderr } = svc(['vrl', '--module', path, '-i', file('one.ndjson', '{"n":1}\n')]);
    const expected = `svc: cannot load module file '${path}': ${reason}`;
    if (reason.endsWith('('))
      assert.ok(stderr.startsWith(expected) && stderr.endsWith(')\n') && !stderr.slice(0, -1).includes('\n'), stderr);
    else assert.is(stderr, `${expected}\n`, name);
    assert.is(stdout, '', name);
    assert.is(status, 70, name);
  }
});

test('-i of a directory, of a missing file, and a directory as --module exit 66 with one line', () => {
  const sub = join(dir, 'a-directory');
  mkdirSync(sub, { recursive: true });
  assert.equal(svc(['vrl', '-i', sub, '.']), {
    status: 66,
    stdout: '',
    stderr: `svc: cannot read input file '${sub}': is a directory\n`,
  });
  const missing = join(dir, 'missing.ndjson');
  assert.equal(svc(['vrl', '-i', missing, '.']), {
    status: 66,
    stdout: '',
    stderr: `svc: cannot read input file '${missing}': no such file\n`,
  });
  assert.equal(svc(['vrl', '--module', sub]), {
    status: 66,
    stdout: '',
    stderr: `svc: cannot read module file '${sub}': is a directory\n`,
  });
});

test('the stack comes only with RUST_BACKTRACE or -v, after the same first line', () => {
  const sub = join(dir, 'a-directory');
  const line = `svc: cannot read input file '${sub}': is a directory`;
  for (const run of [
    svc(['vrl', '-i', sub, '.'], { env: { RUST_BACKTRACE: '1' } }),
    svc(['vrl', '-v', '-i', sub, '.']),
  ]) {
    const [first, ...rest] = run.stderr.trimEnd().split('\n');
    assert.is(first, line);
    assert.match(rest.join('\n'), /^CliError: .*\n\s+at /);
    assert.match(rest.join('\n'), /caused by: Error: EISDIR/);
    assert.is(run.status, 66);
  }
  assert.is(svc(['vrl', '-i', sub, '.'], { env: { RUST_BACKTRACE: '0' } }).stderr, `${line}\n`);
});

test('a reader that goes away (EPIPE, as `| head -1`) ends svc vrl quietly with status 0', async () => {
  const input = file('many.ndjson', events(300_000));
  const child = spawn(process.execPath, [SVC_MAIN, 'vrl', '-i', input, COUNTING], {
    env: svcEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const hang = setTimeout(() => child.kill('SIGKILL'), 20_000);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const firstLine = await new Promise<string>((resolve) => {
    let seen = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      if (seen.includes('\n')) {
        child.stdout.destroy();
        resolve(seen.slice(0, seen.indexOf('\n')));
      }
    });
    child.on('close', () => resolve(seen));
  });
  const [status, signal] = await new Promise<[number | null, string | null]>((resolve) =>
    child.on('close', (code, sig) => resolve([code, sig])),
  );
  clearTimeout(hang);
  assert.is(firstLine, '0');
  assert.is(signal, null);
  assert.is(stderr, '');
  assert.is(status, 0);
});

test('a full disk (stdout on /dev/full) is one line and exit 74; so is --emit-wasm to it', () => {
  if (!existsSync('/dev/full')) return;
  const full = openSync('/dev/full', 'w');
  try {
    const run = spawnSync(process.execPath, [SVC_MAIN, 'vrl', '-i', file('three.ndjson', events(3)), COUNTING], {
      env: svcEnv(),
      stdio: ['ignore', full, 'pipe'],
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.is(run.stderr, 'svc: cannot write output: no space left on device\n');
    assert.is(run.status, 74);
  } finally {
    closeSync(full);
  }
  assert.equal(svc(['vrl', '--emit-wasm', '/dev/full', COUNTING]), {
    status: 74,
    stdout: '',
    stderr: "svc: cannot write module file '/dev/full': no space left on device\n",
  });
});

test('runtime errors and invalid JSON name their input line; every other event comes out', () => {
  const lines = ['{"n":"1"}', '{"n":"x"}', '{bad', '', '{"n":"4"}', '{"n":', '{"n":"6"}'];
  const { status, stdout, stderr } = svc(['vrl', '-i', '-', 'to_int!(.n)'], { input: lines.join('\n') + '\n' });
  assert.is(stdout, '1\n4\n6\n');
  assert.is(
    stderr,
    [
      'line 2: function call error for "to_int" at (0:11): Invalid integer "x": invalid digit found in string',
      'line 3: invalid JSON: key must be a string at column 2',
      'line 6: invalid JSON: EOF while parsing a value at column 5',
    ].join('\n') + '\n',
  );
  assert.is(status, 0);
});

test('line numbers count across the pieces a large input is read in', () => {
  // More than the 1 MiB pieces of a file read: the failing lines sit in later pieces.
  const lines = Array.from({ length: 60_000 }, (_, n) =>
    n % 20_000 === 19_999 ? '{oops' : `{"n":${n},"pad":"${'x'.repeat(n % 50)}"}`,
  );
  const expected = lines.flatMap((line, n) => (line === '{oops' ? [] : [`${n}\n`])).join('');
  const { status, stdout, stderr } = svc(['vrl', '-i', file('large.ndjson', lines.join('\n') + '\n'), COUNTING]);
  assert.ok(stdout === expected, 'every other event came out, in order');
  assert.is(
    stderr,
    [20_000, 40_000, 60_000].map((line) => `line ${line}: invalid JSON: key must be a string at column 2\n`).join(''),
  );
  assert.is(status, 0);
});

test('a line longer than --max-line-bytes is one error line; the events around it come out', () => {
  const long = `{"n":-1,"pad":"${'y'.repeat(300)}"}`;
  const input = events(3) + long + '\n' + events(2);
  const expected = '0\n1\n2\n0\n1\n';
  const message = 'line 4: the line is longer than 100 bytes (--max-line-bytes): skipped\n';
  // From a file (the long line inside one piece) and from stdin.
  assert.equal(svc(['vrl', '--max-line-bytes', '100', '-i', file('long.ndjson', input), COUNTING]), {
    status: 0,
    stdout: expected,
    stderr: message,
  });
  assert.equal(svc(['vrl', '--max-line-bytes', '100', '-i', '-', COUNTING], { input }), {
    status: 0,
    stdout: expected,
    stderr: message,
  });
  // A long line that spans many chunks of stdin, over and under the limit.
  const huge = `{"n":7,"pad":"${'z'.repeat(3 << 20)}"}\n`;
  assert.equal(
    svc(['vrl', '--max-line-bytes', String(2 << 20), '-i', '-', COUNTING], { input: events(1) + huge + events(1) }),
    {
      status: 0,
      stdout: '0\n0\n',
      stderr: `line 2: the line is longer than ${2 << 20} bytes (--max-line-bytes): skipped\n`,
    },
  );
  assert.equal(svc(['vrl', '-i', '-', 'length!(.pad)'], { input: huge }), {
    status: 0,
    stdout: `${3 << 20}\n`,
    stderr: '',
  });
  // A last line without a newline is still a line.
  assert.equal(svc(['vrl', '--max-line-bytes', '100', '-i', '-', COUNTING], { input: events(1) + long }), {
    status: 0,
    stdout: '0\n',
    stderr: 'line 2: the line is longer than 100 bytes (--max-line-bytes): skipped\n',
  });
});

test('an invalid --max-line-bytes is a usage error', () => {
  for (const value of ['0', '-5', '1.5', 'lots']) {
    const { status, stderr } = svc(['vrl', `--max-line-bytes=${value}`, '.']);
    assert.match(stderr, /^svc: invalid --max-line-bytes '.*': expected a positive whole number of bytes\n$/);
    assert.is(status, 64);
  }
});

test('-i /dev/zero reports its endless line once it passes the limit, and does not grow', async () => {
  if (!existsSync('/dev/zero')) return;
  const child = spawn(
    process.execPath,
    [SVC_MAIN, 'vrl', '--max-line-bytes', String(1 << 20), '-i', '/dev/zero', '.'],
    {
      env: svcEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const hang = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const stderr = await new Promise<string>((resolve) => {
    let seen = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      if (seen.includes('\n')) resolve(seen);
    });
    child.on('close', () => resolve(seen));
  });
  // Keep it skipping zeros for a while: its memory stays that of an idle process.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) * 1024;
  child.kill();
  clearTimeout(hang);
  assert.is(stderr, `line 1: the line is longer than ${1 << 20} bytes (--max-line-bytes): skipped\n`);
  assert.ok(rss < 400 * 2 ** 20, `RSS ${rss}`);
});

test('control characters in program text are rejected as VRL does: E203 at the character', () => {
  for (const [program, column] of [
    ['.a = 1\0', 7],
    ['.a = \x01 1', 6],
    ['\x1b[31m.a', 1],
  ] as const) {
    const { status, stdout, stderr } = svc(['vrl', '-p', file('control.vrl', program)]);
    assert.ok(stderr.startsWith(`error[E203]: syntax error\n  ┌─ :1:${column}\n`), JSON.stringify(stderr));
    assert.match(stderr, /unexpected syntax token: "InvalidToken"/);
    assert.is(stdout, '');
    assert.is(status, 70);
  }
  // VRL's whitespace (\v \f \r) separates tokens; inside strings and comments any character is text.
  assert.equal(svc(['vrl', '.a\v=\f1\r\n.a']), { status: 0, stdout: '1\n', stderr: '' });
  assert.equal(svc(['vrl', '-p', file('text.vrl', '# \0 comment\nlength("a\0b")')]), {
    status: 0,
    stdout: '3\n',
    stderr: '',
  });
});

test('svc vrl -- <program> runs the program, also one that starts with a dash', () => {
  assert.equal(svc(['vrl', '--', '.a = 1']), { status: 0, stdout: '1\n', stderr: '' });
  assert.equal(svc(['vrl', '--', '-1']), { status: 0, stdout: '-1\n', stderr: '' });
  assert.equal(svc(['vrl', '--', '.a', '.b']), {
    status: 64,
    stdout: '',
    stderr: 'svc: give one program: its text as one argument\n',
  });
});

test('the REPL keeps its session after a line that traps or fails at run time', () => {
  const { status, stdout, stderr } = svc(['vrl'], {
    input: 'x = 1\n.a = 2\ns = "x" * 5000000000\nparse_json!("{")\nx + .a\n',
  });
  const lines = stdout.trimEnd().split('\n');
  assert.is(lines.length, 5, stdout);
  assert.equal(lines.slice(0, 2), ['1', '2']);
  assert.match(lines[2]!, /^error: /);
  assert.match(lines[3]!, /^error: function call error for "parse_json"/);
  assert.is(lines[4], '3');
  assert.is(stderr, '');
  assert.is(status, 0);
});

test('the REPL prints diagnostics without ANSI escapes when stdout is not a terminal, even when stderr is', () => {
  // util-linux `script` runs the command on a pseudo-terminal; stdout goes to a file.
  if (spawnSync('script', ['--version']).status !== 0) return;
  const out = join(dir, 'repl-out.txt');
  const command = `printf 'upcase(1)\\n' | '${process.execPath}' '${SVC_MAIN}' vrl > '${out}'`;
  const run = spawnSync('script', ['-qec', command, '/dev/null'], {
    env: svcEnv(),
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.is(run.status, 0, run.stdout);
  const stdout = readFileSync(out, 'utf8');
  assert.match(stdout, /^error\[E110\]: invalid argument type$/m);
  assert.not.match(stdout, /\x1b\[/);
});

test.run();
