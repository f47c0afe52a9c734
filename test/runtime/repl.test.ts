// REPL sessions: every line is linked into the one stdlib module the session's process keeps
// (compiler/codegen/link.ts), so each line must leave it as it found it, whatever the line generated.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CompileError } from '../../compiler/diagnostics/diagnostic.js';
import { RemapRuntimeError } from '../../runtime/program.js';
import { ReplSession } from '../../runtime/repl.js';

test('lines carry variables and the event; closures, JS-backed functions and long lines in between', async () => {
  const session = new ReplSession({ timezone: 'UTC' });
  assert.is(await session.evaluate('x = 2; .a = x'), 2n);
  assert.equal(await session.evaluate('map_values([1, 2]) -> |v| { v * x }'), [2n, 4n]);
  assert.is(await session.evaluate('decode_punycode!("xn--caf-dma")'), 'café');
  // Longer than one part function (generate.ts: STATEMENTS_PER_PART).
  assert.is(await session.evaluate(Array.from({ length: 300 }, (_, i) => `y = ${i}`).join('\n')), 299n);
  assert.is(await session.evaluate('x + y'), 301n);
  assert.equal(session.event, { a: 2n });
});

test('a line that does not compile or fails at run time leaves the next lines working', async () => {
  const session = new ReplSession();
  assert.is(await session.evaluate('n = 1'), 1n);
  await session.evaluate('n + "a"').then(
    () => assert.unreachable('it compiled'),
    (error) => assert.instance(error, CompileError),
  );
  await session.evaluate('.b = 1; m = to_int!("x")').then(
    () => assert.unreachable('it ran'),
    (error) => assert.instance(error, RemapRuntimeError),
  );
  assert.is(await session.evaluate('n + 1'), 2n);
  assert.is(await session.evaluate('m'), null);
  assert.equal(session.event, { b: 1n });
});

test('two sessions in one process keep their own variables', async () => {
  const first = new ReplSession();
  const second = new ReplSession();
  await first.evaluate('v = "first"');
  await second.evaluate('w = 1; v = [w]');
  assert.is(await first.evaluate('v'), 'first');
  assert.equal(await second.evaluate('v'), [1n]);
});

test.run();
