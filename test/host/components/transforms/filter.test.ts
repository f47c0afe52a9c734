import { test } from 'uvu';
import * as assert from 'uvu/assert';
import filter from '../../../../host/components/transforms/filter.js';
import { batchOf, eventsOf, runnerOf } from '../../support/components.js';
import { encodeBatch } from '../../../../abi/batch.js';
import { gzipSync } from 'node:zlib';
import { componentEnv } from '../../support/env.js';

test('filter forwards matching events and counts the others as intentional discards', async () => {
  const { runner } = await runnerOf(filter, { condition: '.level != "debug"' });
  const result = runner.process(
    batchOf([{ level: 'debug' }, { level: 'info' }, { level: 'debug' }, { level: 'warn' }]),
  );
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ level: 'info' }, { level: 'warn' }]);
  assert.equal(result.discarded, [{ count: 2, intentional: true, reason: 'Events matched filter condition.' }]);
  assert.equal(result.errors, []);
});

test('filter: a failing condition does not match and counts a script_failed error', async () => {
  const { runner } = await runnerOf(filter, { condition: { type: 'vrl', source: 'to_int!(.n) > 1' } });
  const result = runner.process(batchOf([{ n: 2 }, { n: 'x' }]));
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ n: 2n }]);
  assert.is(result.errors![0]!.errorType, 'script_failed');
});

test("filter: a condition's decompression functions honour --max-decompressed-size-bytes", async () => {
  const env = { ...componentEnv(filter, 't'), maxDecompressedSize: 1000 };
  const { runner } = await runnerOf(filter, { condition: 'length(decode_gzip!(decode_base64!(.z))) > 0' }, env);
  const result = runner.process(
    batchOf([
      { z: gzipSync(Buffer.alloc(999)).toString('base64') },
      { z: gzipSync(Buffer.alloc(1001)).toString('base64') },
    ]),
  );
  assert.is(eventsOf(result.outputs[0]!.batch).length, 1);
  assert.match(result.errors![0]!.message, /decompressed size exceeds the limit of 1000 bytes/);
});

test('filter with a kind test reads the record kind', async () => {
  const { runner } = await runnerOf(filter, { condition: { type: 'is_metric' } });
  const bytes = encodeBatch(
    [
      { kind: 'log', event: { a: 1 } },
      { kind: 'metric', event: { b: 2 } },
    ],
    0,
  );
  assert.equal(eventsOf(runner.process({ bytes, count: 2 }).outputs[0]!.batch), [{ b: 2n }]);
});

test("filter decodes a source's frames and encodes for its sink: the matching events as decoded, the rest discarded", async () => {
  const { runner } = await runnerOf(filter, { condition: 'to_int!(.n) > 1' });
  const text = '{"n":2}\n{"n":1}\nnope\n{"n":"x"}\n{"n":3}\n';
  const frames = {
    bytes: new TextEncoder().encode(text),
    count: 5,
    frames: {
      framing: { method: 'newline_delimited' as const },
      codec: 'json' as const,
      stamp: { source_type: 'stdin' },
      eof: true,
    },
  };
  const encoded = runner.process(frames, { codec: 'json' });
  const main = encoded.outputs[0]!.batch;
  assert.ok(main.encoded);
  assert.is(main.count, 2);
  assert.is(new TextDecoder().decode(main.bytes), '{"n":2,"source_type":"stdin"}\n{"n":3,"source_type":"stdin"}\n');
  assert.equal(encoded.discarded, [{ count: 2, intentional: true, reason: 'Events matched filter condition.' }]);
  assert.is(encoded.errors![0]!.errorType, 'script_failed');
  assert.is(encoded.errors![0]!.count, 1);
  assert.equal(encoded.decoded, {
    count: 4,
    errors: ['Error parsing JSON: Error("expected ident", line: 1, column: 2)'],
  });
  const batch = runner.process(frames);
  assert.not.ok(batch.outputs[0]!.batch.encoded);
  assert.equal(eventsOf(batch.outputs[0]!.batch), [
    { n: 2n, source_type: 'stdin' },
    { n: 3n, source_type: 'stdin' },
  ]);
});

test("filter rejects a non-boolean condition with Vector's message", async () => {
  try {
    await runnerOf(filter, { condition: '.a' });
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, 'condition: VRL conditions must return a boolean.');
  }
});

for (const type of ['extsearch', 'datadog_search']) {
  test(`filter with a ${type} query: terms, facets with wildcards, OR; quotes and braces in the query`, async () => {
    const events = [
      { message: 'disk full', service: 'web' },
      { message: 'ok', service: 'db' },
      { message: 'say "hi" {x}', service: 'api' },
    ];
    const match = async (source: string) => {
      const { runner } = await runnerOf(filter, { condition: { type, source } });
      return eventsOf(runner.process(batchOf(events)).outputs[0]!.batch).map(
        (event) => (event as { service: string }).service,
      );
    };
    assert.equal(await match('disk'), ['web']);
    assert.equal(await match('@service:d* OR full'), ['web', 'db']);
    assert.equal(await match('"\\"hi\\" {x}"'), ['api']);
  });
}

test.run();
