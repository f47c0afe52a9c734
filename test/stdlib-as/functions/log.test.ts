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

test('log writes strings as they are and other values in display form, and returns null', () => {
  const stdlib = new Stdlib();
  let result: unknown;
  const written = stderrOf(() => {
    result = stdlib.call('fn_log', 'Hello, World!', 'info', 60n);
    stdlib.call('fn_log', { field: [1n, 'a'] }, 'error');
    stdlib.call('fn_log', 'a note', 'debug');
  });
  assert.equal(result, { value: null });
  assert.is(written, 'info: Hello, World!\nerror: { "field": [1, "a"] }\ndebug: a note\n');
});

test('the level defaults to info', () => {
  const stdlib = new Stdlib();
  assert.is(
    stderrOf(() => stdlib.call('fn_log', 7n)),
    'info: 7\n',
  );
});

test('a message repeated within rate_limit_secs is dropped; other messages and levels are not', () => {
  const stdlib = new Stdlib();
  const written = stderrOf(() => {
    for (let i = 0; i < 3; i++) stdlib.call('fn_log', 'again', 'warn', 60n);
    stdlib.call('fn_log', 'again', 'error', 60n);
    stdlib.call('fn_log', 'other', 'warn', 60n);
  });
  assert.is(written, 'warn: again\nerror: again\nwarn: other\n');
});

test('rate_limit_secs 0 writes every time', () => {
  const stdlib = new Stdlib();
  assert.is(
    stderrOf(() => [1, 2, 3].forEach(() => stdlib.call('fn_log', 'each', 'trace', 0n))),
    'trace: each\n'.repeat(3),
  );
});

test("wrong argument kinds fail with VRL's type error", () => {
  const stdlib = new Stdlib();
  assert.equal(stdlib.call('fn_log', 'x', 1n), { error: 'expected string, got integer' });
  assert.equal(stdlib.call('fn_log', 'x', 'info', 'soon'), { error: 'expected integer, got string' });
});

test.run();
