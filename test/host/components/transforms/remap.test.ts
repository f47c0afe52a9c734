import { test } from 'uvu';
import * as assert from 'uvu/assert';
import remap from '../../../../host/components/transforms/remap.js';
import { batchOf, eventsOf, runnerOf } from '../../support/components.js';
import { decodeBatch, encodeBatch } from '../../../../abi/batch.js';

const PROGRAM = `
if .n == 1 { .x = to_int!(.bad) }
if .n == 2 { abort "stop" }
if .name == "c" { abort "stop" }
.done = true
`;

test('remap forwards failed events unchanged by default (errors) and drops aborted ones', async () => {
  const { runner } = await runnerOf(remap, { source: PROGRAM });
  const result = runner.process(batchOf([{ n: 0 }, { n: 1, bad: 'x' }, { n: 2 }]));
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ n: 0n, done: true }, { n: 1n, bad: 'x' }]);
  assert.equal(result.errors, [{ count: 1, errorType: 'conversion_failed', stage: 'processing', message: 'Mapping failed with event: function call error for "to_int" at (19:32): Invalid integer "x": invalid digit found in string' }]);
  assert.equal(result.discarded, [{ count: 1, intentional: true, reason: 'Event mapping aborted.' }]);
});

test('remap drop_on_error drops failed events, drop_on_abort false keeps aborted ones', async () => {
  const { runner } = await runnerOf(remap, { source: PROGRAM, drop_on_error: true, drop_on_abort: false });
  const result = runner.process(batchOf([{ n: 0 }, { n: 1, bad: 'x' }, { n: 2 }]));
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ n: 0n, done: true }, { n: 2n }]);
  assert.equal(result.discarded, [{ count: 1, intentional: false, reason: 'Mapping failed with event.' }]);
});

test('remap reroute_dropped sends originals to `dropped`, annotated at log_schema.metadata_key as Vector does', async () => {
  const { runner } = await runnerOf(remap, { source: PROGRAM, drop_on_error: true, reroute_dropped: true });
  assert.equal(remap.outputs(remap.options.parse({ source: '.', reroute_dropped: true }), 'r').map((port) => port.name), [undefined, 'dropped']);
  const input = encodeBatch([
    { event: { n: 1, bad: 'x', f: 1.5 }, metadata: { m: 1 } },
    { event: { n: 2 } },
    { kind: 'metric', event: { name: 'c', kind: 'absolute', counter: { value: 1.5 }, tags: { a: 'b' } } },
  ], 0);
  const result = runner.process({ bytes: input, count: 3 });
  assert.equal(result.discarded, []);
  const dropped = decodeBatch(result.outputs[1]!.batch.bytes).events;
  const common = { component_id: 't', component_type: 'remap', component_kind: 'transform' };
  assert.equal(dropped, [
    {
      kind: 'log',
      metadata: { m: 1n },
      event: { n: 1n, bad: 'x', f: 1.5, metadata: { dropped: { reason: 'error', message: 'function call error for "to_int" at (19:32): Invalid integer "x": invalid digit found in string', ...common } } },
    },
    { kind: 'log', metadata: {}, event: { n: 2n, metadata: { dropped: { reason: 'abort', message: 'stop', ...common } } } },
    {
      kind: 'metric',
      metadata: {},
      event: { name: 'c', kind: 'absolute', counter: { value: 1.5 }, tags: { a: 'b', 'metadata.dropped.reason': 'abort', 'metadata.dropped.component_id': 't', 'metadata.dropped.component_type': 'remap', 'metadata.dropped.component_kind': 'transform' } },
    },
  ]);
});

test('remap emits one event per element when the program sets . to an array', async () => {
  const { runner } = await runnerOf(remap, { source: '. = [{"a": 1}, {"a": 2}, 3]' });
  const result = runner.process(batchOf([{ x: 1 }]));
  assert.is(result.outputs[0]!.batch.count, 3);
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ a: 1n }, { a: 2n }, { message: 3n }]);
});

test('remap reports compile errors with the rendered diagnostics at prepare', async () => {
  try {
    await runnerOf(remap, { source: '.a = to_int(.b)' });
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, /error\[E103\]: unhandled fallible assignment/);
  }
});

test('remap options: exactly one program source; unknown options are errors', () => {
  assert.not.ok(remap.options.safeParse({}).success);
  assert.not.ok(remap.options.safeParse({ source: '.', file: 'x.vrl' }).success);
  assert.not.ok(remap.options.safeParse({ source: '.', bogus: 1 }).success);
  assert.ok(remap.options.safeParse({ files: ['a.vrl'] }).success);
});

test.run();
