import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../../support/stdlib.js';

/** Runs `fn` and returns what the host wrote to stderr meanwhile. */
function stderrOf(fn: () => void): string {
  const write = process.stderr.write;
  let written = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    written += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    fn();
  } finally {
    process.stderr.write = write;
  }
  return written;
}

/** Calls `fn_log` as the call at byte `position` of a program (`undefined` for an absent argument). */
function logAt(stdlib: Stdlib, position: number, ...args: unknown[]): { value: unknown } | { error: string } {
  const values = [0, 1, 2].map((i) => (args[i] === undefined ? 0 : stdlib.put(args[i])));
  const result = stdlib.exports.fn_log!(...values, position);
  return result === 0 ? { error: stdlib.error() } : { value: stdlib.get(result) };
}

test('log writes strings as they are and other values in display form, and returns null', () => {
  const stdlib = new Stdlib();
  let result: unknown;
  const written = stderrOf(() => {
    result = logAt(stdlib, 0, 'Hello, World!', 'info', 60n);
    logAt(stdlib, 10, { field: [1n, 'a'] }, 'error');
    logAt(stdlib, 20, 'a note', 'debug');
  });
  assert.equal(result, { value: null });
  assert.is(written, 'info: Hello, World!\nerror: { "field": [1, "a"] }\ndebug: a note\n');
});

test('the level defaults to info', () => {
  const stdlib = new Stdlib();
  assert.is(
    stderrOf(() => logAt(stdlib, 0, 7n)),
    'info: 7\n',
  );
});

test('a call site that wrote within rate_limit_secs drops what it is given next, whatever the message', () => {
  const stdlib = new Stdlib();
  const written = stderrOf(() => {
    logAt(stdlib, 5, 'bad id 1', 'warn', 60n);
    logAt(stdlib, 5, 'bad id 2', 'warn', 60n);
    logAt(stdlib, 5, { other: true }, 'warn', 60n);
  });
  assert.is(written, 'warn: bad id 1\n');
});

test('each call site has its own limit, even with the same message', () => {
  const stdlib = new Stdlib();
  const written = stderrOf(() => {
    for (let i = 0; i < 3; i++) {
      logAt(stdlib, 0, 'same', 'info', 60n);
      logAt(stdlib, 40, 'same', 'info', 60n);
    }
  });
  assert.is(written, 'info: same\n'.repeat(2));
});

test('the default limit (1 s) applies per call site too', () => {
  const stdlib = new Stdlib();
  const written = stderrOf(() => {
    logAt(stdlib, 3, 'first');
    logAt(stdlib, 3, 'second');
  });
  assert.is(written, 'info: first\n');
});

test('rate_limit_secs 0 writes every time', () => {
  const stdlib = new Stdlib();
  assert.is(
    stderrOf(() => [1, 2, 3].forEach((n) => logAt(stdlib, 0, `each ${n}`, 'trace', 0n))),
    'trace: each 1\ntrace: each 2\ntrace: each 3\n',
  );
});

test('as many call sites as there are slots each keep their own limit', () => {
  const stdlib = new Stdlib();
  // Positions 256 apart, and a dense run: both share hash buckets with others.
  const positions = [
    ...Array.from({ length: 128 }, (_, i) => i * 256),
    ...Array.from({ length: 128 }, (_, i) => i + 1),
  ];
  const first = stderrOf(() => positions.forEach((p) => logAt(stdlib, p, `site ${p}`, 'info', 60n)));
  assert.is(first.split('\n').length - 1, 256, 'each site writes once');
  assert.is(
    stderrOf(() => positions.forEach((p) => logAt(stdlib, p, `again ${p}`, 'info', 60n))),
    '',
    'no site writes again within its limit',
  );
});

test("wrong argument kinds fail with VRL's type error", () => {
  const stdlib = new Stdlib();
  assert.equal(logAt(stdlib, 0, 'x', 1n), { error: 'expected string, got integer' });
  assert.equal(logAt(stdlib, 0, 'x', 'info', 'soon'), { error: 'expected integer, got string' });
});

test.run();
