import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import remap from '../../../../host/components/transforms/remap.js';
import { batchOf, eventsOf, runnerOf } from '../../support/components.js';
import { tempDir } from '../../support/svc.js';
import { withInfo } from '../../../support/module-bytes.js';
import { decodeBatch, encodeBatch } from '../../../../abi/batch.js';
import { gzipSync } from 'node:zlib';
import { componentEnv } from '../../support/env.js';

const PROGRAM = `
if .n == 1 { .x = to_int!(.bad) }
if .n == 2 { abort "stop" }
if .name == "c" { abort "stop" }
.done = true
`;

test('remap forwards failed events unchanged by default (errors) and drops aborted ones', async () => {
  const { runner } = await runnerOf(remap, { source: PROGRAM });
  const result = runner.process(batchOf([{ n: 0 }, { n: 1, bad: 'x' }, { n: 2 }]));
  assert.equal(eventsOf(result.outputs[0]!.batch), [
    { n: 0n, done: true },
    { n: 1n, bad: 'x' },
  ]);
  assert.equal(result.errors, [
    {
      count: 1,
      errorType: 'conversion_failed',
      stage: 'processing',
      message:
        'Mapping failed with event: function call error for "to_int" at (19:32): Invalid integer "x": invalid digit found in string',
    },
  ]);
  assert.equal(result.discarded, [{ count: 1, intentional: true, reason: 'Event mapping aborted.' }]);
});

test("remap: decompression functions honour --max-decompressed-size-bytes (the env's cap)", async () => {
  const gzipped = gzipSync(Buffer.alloc(2000)).toString('base64');
  const program = { source: '.size = length(decode_gzip!(decode_base64!(.z)))' };
  const capped = await runnerOf(remap, program, { ...componentEnv(remap, 't'), maxDecompressedSize: 1000 });
  const failed = capped.runner.process(batchOf([{ z: gzipped }]));
  assert.match(
    failed.errors![0]!.message,
    /unable to decode value with Gzip decoder: decompressed size exceeds the limit of 1000 bytes/,
  );
  const roomy = await runnerOf(remap, program, { ...componentEnv(remap, 't'), maxDecompressedSize: 2000 });
  assert.equal(eventsOf(roomy.runner.process(batchOf([{ z: gzipped }])).outputs[0]!.batch), [
    { z: gzipped, size: 2000n },
  ]);
});

test('remap drop_on_error drops failed events, drop_on_abort false keeps aborted ones', async () => {
  const { runner } = await runnerOf(remap, { source: PROGRAM, drop_on_error: true, drop_on_abort: false });
  const result = runner.process(batchOf([{ n: 0 }, { n: 1, bad: 'x' }, { n: 2 }]));
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ n: 0n, done: true }, { n: 2n }]);
  assert.equal(result.discarded, [{ count: 1, intentional: false, reason: 'Mapping failed with event.' }]);
});

test('remap reroute_dropped sends originals to `dropped`, annotated at log_schema.metadata_key as Vector does', async () => {
  const { runner } = await runnerOf(remap, { source: PROGRAM, drop_on_error: true, reroute_dropped: true });
  assert.equal(
    remap.outputs(remap.options.parse({ source: '.', reroute_dropped: true }), 'r').map((port) => port.name),
    [undefined, 'dropped'],
  );
  const input = encodeBatch(
    [
      { event: { n: 1, bad: 'x', f: 1.5 }, metadata: { m: 1 } },
      { event: { n: 2 } },
      { kind: 'metric', event: { name: 'c', kind: 'absolute', counter: { value: 1.5 }, tags: { a: 'b' } } },
    ],
    0,
  );
  const result = runner.process({ bytes: input, count: 3 });
  assert.equal(result.discarded, []);
  const dropped = decodeBatch(result.outputs[1]!.batch.bytes).events;
  const common = { component_id: 't', component_type: 'remap', component_kind: 'transform' };
  assert.equal(dropped, [
    {
      kind: 'log',
      metadata: { m: 1n },
      event: {
        n: 1n,
        bad: 'x',
        f: 1.5,
        metadata: {
          dropped: {
            reason: 'error',
            message: 'function call error for "to_int" at (19:32): Invalid integer "x": invalid digit found in string',
            ...common,
          },
        },
      },
    },
    {
      kind: 'log',
      metadata: {},
      event: { n: 2n, metadata: { dropped: { reason: 'abort', message: 'stop', ...common } } },
    },
    {
      kind: 'metric',
      metadata: {},
      event: {
        name: 'c',
        kind: 'absolute',
        counter: { value: 1.5 },
        tags: {
          a: 'b',
          'metadata.dropped.reason': 'abort',
          'metadata.dropped.component_id': 't',
          'metadata.dropped.component_type': 'remap',
          'metadata.dropped.component_kind': 'transform',
        },
      },
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
  assert.not.ok(remap.options.safeParse({ source: '.', module: 'x.wasm' }).success);
  assert.ok(remap.options.safeParse({ module: 'x.wasm' }).success);
  assert.not.ok(remap.options.safeParse({ source: '.', bogus: 1 }).success);
  assert.ok(remap.options.safeParse({ files: ['a.vrl'] }).success);
});

test("remap sees a metric as Vector's view and writes the metric back with the changes Vector allows", async () => {
  const { runner } = await runnerOf(remap, {
    source: '.tags.type = .type\n.name = upcase!(.name)\n.kind = "neither"\n.counter.value = 0.0',
  });
  const metric = { name: 'hits', kind: 'incremental', counter: { value: 2.5 } };
  const result = runner.process(batchOf([metric], 'metric'));
  assert.equal(eventsOf(result.outputs[0]!.batch), [
    { name: 'HITS', kind: 'incremental', counter: { value: 2.5 }, tags: { type: 'counter' } },
  ]);
  assert.equal(result.errors, []);
});

test("remap changes a metric's tags through the in-place form of `set` as through an assignment", async () => {
  const { runner } = await runnerOf(remap, {
    source: 'for_each(["a", "b"]) -> |_i, k| { .tags = set!(.tags, [k], upcase(k)) }',
  });
  const metric = { name: 'hits', kind: 'incremental', counter: { value: 2.5 }, tags: { host: 'h' } };
  const result = runner.process(batchOf([metric, metric], 'metric'));
  const expected = { ...metric, tags: { host: 'h', a: 'A', b: 'B' } };
  assert.equal(eventsOf(result.outputs[0]!.batch), [expected, expected]);
  assert.equal(result.errors, []);
});

// ---- precompiled modules --------------------------------------------------------------------------------

const main = fileURLToPath(new URL('../../../../bin/svc.js', import.meta.url));
const scratch = tempDir();

test("remap runs a module written by `svc vrl --emit-wasm`, in the pipeline's time zone", async () => {
  const wasm = join(scratch, 'program.wasm');
  const program =
    '.b = to_int!(.a) + 1\n.day = format_timestamp!(t\'2021-01-01T23:30:00Z\', "%F", timezone: "Asia/Tokyo")\n.hour = to_string(parse_timestamp!("2021-01-01 00:00", "%Y-%m-%d %H:%M"))';
  const emitted = spawnSync(process.execPath, [main, 'vrl', '--emit-wasm', wasm, program], { encoding: 'utf8' });
  assert.is(emitted.stderr, '');
  assert.is(emitted.status, 0);
  const { runner } = await runnerOf(remap, { module: wasm, timezone: 'Europe/Paris' });
  const result = runner.process(batchOf([{ a: 41 }, { a: 'x' }]));
  assert.equal(eventsOf(result.outputs[0]!.batch), [
    { a: 41n, b: 42n, day: '2021-01-02', hour: '2020-12-31T23:00:00Z' },
    { a: 'x' },
  ]);
  assert.is(result.errors?.length, 1);
});

test('remap refuses, naming the file, a module that is not a remap module or that this svc cannot run', async () => {
  const write = (name: string, bytes: Uint8Array | string) => {
    const path = join(scratch, name);
    writeFileSync(path, bytes);
    return path;
  };
  const codecModule = fileURLToPath(new URL('../../../../codec.wasm', import.meta.url));
  const refusals: Array<[string, string]> = [
    [write('text.wasm', '.a = 1'), 'not a compiled remap module: not WebAssembly'],
    [codecModule, 'not a compiled remap module: it has no "svc" custom section'],
    [
      write('abi.wasm', withInfo({ abi: 1, compiler: '0.0.9' })),
      'the module uses ABI version 1 (compiled by svc 0.0.9), but this svc runs ABI version 6: compile the program again',
    ],
    [
      write('newer.wasm', withInfo({ compiler: '0.1.99' })),
      'compiled by svc 0.1.99, which this svc (0.1.0) cannot run: compile the program again with `svc vrl --emit-wasm`',
    ],
    [write('other.wasm', withInfo({ compiler: '1.0.0' })), 'compiled by svc 1.0.0, which this svc (0.1.0) cannot run'],
    [
      write('functions.wasm', withInfo({ jsFunctions: ['parse_xml', 'teleport'] })),
      'it calls teleport, which this svc does not provide',
    ],
  ];
  for (const [path, message] of refusals) {
    try {
      await runnerOf(remap, { module: path });
      assert.unreachable(path);
    } catch (error) {
      assert.ok((error as Error).message.startsWith(`remap module "${path}": ${message}`), (error as Error).message);
    }
  }
  try {
    await runnerOf(remap, { module: join(scratch, 'absent.wasm') });
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, `cannot read the remap module "${join(scratch, 'absent.wasm')}": no such file`);
  }
});

const FRAMES = {
  framing: { method: 'newline_delimited' as const },
  codec: 'json' as const,
  stamp: { source_type: 'stdin' },
  eof: true,
};
const framesOf = (text: string) => ({
  bytes: new TextEncoder().encode(text),
  count: text.split('\n').length - 1,
  frames: FRAMES,
});

test("remap decodes a source's frames itself: events stamped, bad frames reported as decode errors, failures as usual", async () => {
  const { runner } = await runnerOf(remap, { source: PROGRAM });
  const result = runner.process(framesOf('{"n":0}\nnot json\n{"n":1,"bad":"x"}\n\n{"n":2}\n[{"n":3},{"n":4}]\n'));
  assert.equal(eventsOf(result.outputs[0]!.batch), [
    { n: 0n, done: true, source_type: 'stdin' },
    { n: 1n, bad: 'x', source_type: 'stdin' },
    { n: 3n, done: true, source_type: 'stdin' },
    { n: 4n, done: true, source_type: 'stdin' },
  ]);
  assert.equal(result.decoded, {
    count: 5,
    errors: ['Error parsing JSON: Error("expected ident", line: 1, column: 2)'],
  });
  assert.is(result.errors?.[0]?.count, 1);
  assert.equal(result.discarded, [{ count: 1, intentional: true, reason: 'Event mapping aborted.' }]);
});

test("remap encodes for its sink when asked: its default output is then the sink's bytes; dropped events stay a batch", async () => {
  const { runner } = await runnerOf(remap, { source: PROGRAM, reroute_dropped: true, drop_on_error: true });
  const result = runner.process(framesOf('{"n":0}\n{"n":1,"bad":"x"}\n{"n":5,"t":"a"}\n'), {
    codec: 'csv',
    csv: { fields: ['n', 't'] },
  });
  const main = result.outputs[0]!.batch;
  assert.ok(main.encoded);
  assert.is(main.count, 2);
  assert.is(new TextDecoder().decode(main.bytes), '0,\n5,a\n');
  const dropped = eventsOf(result.outputs[1]!.batch) as Array<Record<string, unknown>>;
  assert.equal(
    dropped.map((event) => [event.n, event.bad, event.source_type]),
    [[1n, 'x', 'stdin']],
  );
});

// A program that replaces the event first leaves the stamp out unless it reads a stamped field before.
test('remap: a program replacing the event sees the stamp fields it reads; failed events keep the stamp', async () => {
  const text = (frames: ReturnType<typeof framesOf>) => ({
    ...frames,
    frames: { ...frames.frames, codec: 'bytes' as const },
  });
  const reads = await runnerOf(remap, { source: '. = { "t": .source_type, "m": .message }' });
  assert.equal(eventsOf(reads.runner.process(text(framesOf('a\n'))).outputs[0]!.batch), [{ t: 'stdin', m: 'a' }]);
  const { runner } = await runnerOf(remap, { source: '. = object!(parse_json!(.message))' });
  const result = runner.process(text(framesOf('{"a":1}\nnot json\n')));
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ a: 1n }, { message: 'not json', source_type: 'stdin' }]);
});

test('remap decodes frames for a precompiled module without the fused entry, and does not encode then', async () => {
  const wasm = join(scratch, 'plain.wasm');
  const emitted = spawnSync(process.execPath, [main, 'vrl', '--emit-wasm', wasm, '.seen = true'], { encoding: 'utf8' });
  assert.is(emitted.status, 0);
  const { runner } = await runnerOf(remap, { module: wasm });
  const result = runner.process(framesOf('{"a":1}\n{oops\n'), { codec: 'json' });
  assert.not.ok(result.outputs[0]!.batch.encoded);
  assert.equal(eventsOf(result.outputs[0]!.batch), [{ a: 1n, seen: true, source_type: 'stdin' }]);
  assert.is(result.decoded?.count, 1);
  assert.is(result.decoded?.errors.length, 1);
});

test.run();
