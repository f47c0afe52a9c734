import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatchFlag, decodeBatch, decodeOutput, encodeBatch, encodeOutput, type OutputRecord } from '../../runtime/batch.js';
import { Program, RemapRuntimeError } from '../../runtime/program.js';
import type { RemapValue } from '../../runtime/values.js';

/** A stand-in instance: answers each input record with `answer(event)` and records the flags it got. */
function stubProgram(answer: (event: RemapValue) => OutputRecord) {
  const seen: number[] = [];
  const instance = {
    runBatch(input: Uint8Array) {
      const { flags, events } = decodeBatch(input);
      seen.push(flags);
      return encodeOutput(events.map(({ event }) => answer(event as RemapValue)), flags);
    },
    runNdjson: (input: Uint8Array, flags: number) => ({ output: Buffer.from(input), errors: [{ line: flags, message: 'm' }] }),
  };
  return { program: new Program(instance, []), seen };
}

test('run asks for the result and the raw target, and returns both', () => {
  const { program, seen } = stubProgram((event) => ({
    kind: 'log', outcome: 'kept', events: [{ metadata: {}, event: { ...(event as object), b: 2n } }], result: 'r',
  }));
  assert.equal(program.run({ a: 1 }), { result: 'r', event: { a: 1n, b: 2n } });
  assert.equal(seen, [BatchFlag.RESULTS | BatchFlag.RAW]);
});

test('run never mutates its input', () => {
  const { program } = stubProgram(() => ({ kind: 'log', outcome: 'kept', events: [{ metadata: {}, event: {} }], result: null }));
  const input = { a: { b: [1, 2] } };
  const copy = structuredClone(input);
  program.run(input);
  assert.equal(input, copy);
});

test('a runtime error or abort throws RemapRuntimeError with the message and the event as it was', () => {
  for (const outcome of ['error', 'aborted'] as const) {
    const { program } = stubProgram(() => ({ kind: 'log', outcome, message: `it ${outcome}`, metadata: {}, event: { a: 5n } }));
    try {
      program.run({ a: 1 });
      assert.unreachable('run should have thrown');
    } catch (error) {
      assert.instance(error, RemapRuntimeError);
      assert.instance(error, Error);
      assert.is((error as RemapRuntimeError).message, `it ${outcome}`);
      assert.is((error as RemapRuntimeError).name, 'RemapRuntimeError');
      assert.equal((error as RemapRuntimeError).event, { a: 5n });
    }
  }
});

test('a dropped answer to run is a bug in the module', () => {
  const { program } = stubProgram(() => ({ kind: 'log', outcome: 'dropped' }));
  assert.throws(() => program.run({}), /answered a single event with outcome "dropped"/);
});

test('runBatch and runNdjson pass through; warnings are kept', () => {
  const { program, seen } = stubProgram(() => ({ kind: 'metric', outcome: 'dropped' }));
  const output = program.runBatch(encodeBatch([{ event: 1 }, { event: 2 }], 0));
  assert.equal(decodeOutput(output), [{ kind: 'metric', outcome: 'dropped' }, { kind: 'metric', outcome: 'dropped' }]);
  assert.equal(seen, [0]);
  assert.equal(program.runNdjson(Buffer.from('x\n'), 2), { output: Buffer.from('x\n'), errors: [{ line: 2, message: 'm' }] });
  assert.equal(program.warnings, []);
});

test.run();
