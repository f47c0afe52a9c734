import { test } from 'uvu';
import * as assert from 'uvu/assert';
import initWabt from 'wabt';
import { ABI_VERSION, ChainFlag, decodeBatch, encodeBatch, type InputEvent } from '../../abi/batch.js';
import { BatchReader, BatchWriter, splitByBitmap } from '../../runtime/batch-io.js';
import { compileModule } from '../../runtime/index.js';
import { instantiate, loadInstance, loadModule, NDJSON_CHUNK_BYTES, ndjsonChunks } from '../../runtime/module.js';
import { defaultServices } from '../../runtime/services.js';
import { emptyModule, info, withInfo } from '../support/module-bytes.js';

test('a module of another ABI version is refused, naming both versions', () => {
  assert.throws(
    () => loadModule(withInfo({ abi: ABI_VERSION + 1, compiler: '9.0.0' })),
    (error: Error) =>
      error.message ===
      `the module uses ABI version ${ABI_VERSION + 1} (compiled by svc 9.0.0), but this svc runs ABI version ${ABI_VERSION}: ` +
        'compile the program again',
  );
});

/** The message `promise` rejects with. */
const rejection = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error.message,
  );

test('a module calling an unknown JS function is refused', async () => {
  assert.match(
    await rejection(loadInstance(withInfo({ jsFunctions: ['no_such_function'] }))),
    /the module calls JS function "no_such_function", which this svc does not provide/,
  );
  assert.match(await rejection(loadInstance(withInfo({ jsFunctions: ['constructor'] }))), /JS function "constructor"/);
});

test('a module without the ABI exports is refused, listing them', async () => {
  assert.match(
    await rejection(loadInstance(withInfo({}))),
    new RegExp(
      'the module lacks the exports memory, svc_init, alloc, reset, run_batch, run_chain, run_condition, run_ndjson, ' +
        'output_len, errors_ptr, errors_len, ndjson_lines, failures_ptr, failures_len, arena_used',
    ),
  );
});

// A stand-in for a compiled module that implements the ABI's plumbing: a bump arena above 1024,
// `run_batch` echoes its input, `run_ndjson` echoes its input, counts its lines and reports
// an error "bad" on line 1, `svc_init` keeps the constants' address, which `run_batch` returns for input "C";
// `run_chain` and `run_condition` echo their input and report no failures.
const FAKE_WAT = `(module
  (memory (export "memory") 1)
  (global $top (mut i32) (i32.const 1024))
  (global $floor (mut i32) (i32.const 1024))
  (global $outLen (mut i32) (i32.const 0))
  (global $constants (mut i32) (i32.const 0))
  (data (i32.const 16) "\\01\\00\\00\\00\\03\\00\\00\\00bad")
  (func (export "alloc") (param $n i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $top))
    (global.set $top (i32.add (local.get $p) (local.get $n)))
    (if (i32.gt_u (global.get $top) (i32.shl (memory.size) (i32.const 16)))
      (then (drop (memory.grow (i32.add (i32.const 1)
        (i32.shr_u (i32.sub (global.get $top) (i32.shl (memory.size) (i32.const 16))) (i32.const 16)))))))
    (local.get $p))
  (func (export "reset") (global.set $top (global.get $floor)))
  (func (export "svc_init") (param $constants i32)
    (global.set $constants (local.get $constants))
    (global.set $floor (global.get $top)))
  (func (export "arena_used") (result i32) (i32.sub (global.get $top) (global.get $floor)))
  (func (export "output_len") (result i32) (global.get $outLen))
  (func (export "errors_ptr") (result i32) (i32.const 16))
  (func (export "errors_len") (result i32) (i32.const 11))
  (func (export "failures_ptr") (result i32) (i32.const 0))
  (func (export "failures_len") (result i32) (i32.const 0))
  (func (export "runtime_state") (result i32) (i32.const 32))
  (func (export "run_chain") (param $p i32) (param $n i32) (param $flags i32) (result i32)
    (global.set $outLen (local.get $n))
    (local.get $p))
  (func (export "run_condition") (param $p i32) (param $n i32) (result i32)
    (global.set $outLen (local.get $n))
    (local.get $p))
  (func (export "run_batch") (param $p i32) (param $n i32) (result i32)
    (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 0x43)) (then
      (global.set $outLen (i32.const 5))
      (return (global.get $constants))))
    (global.set $outLen (local.get $n))
    (local.get $p))
  (global $lines (mut i32) (i32.const 0))
  (func (export "ndjson_lines") (result i32) (global.get $lines))
  (func (export "run_ndjson") (param $p i32) (param $n i32) (param $flags i32) (result i32)
    (local $i i32)
    (global.set $lines (i32.const 0))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (if (i32.eq (i32.load8_u (i32.add (local.get $p) (local.get $i))) (i32.const 10))
        (then (global.set $lines (i32.add (global.get $lines) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
    (if (i32.and (i32.gt_u (local.get $n) (i32.const 0))
          (i32.ne (i32.load8_u (i32.add (local.get $p) (i32.sub (local.get $n) (i32.const 1)))) (i32.const 10)))
      (then (global.set $lines (i32.add (global.get $lines) (i32.const 1)))))
    (global.set $outLen (local.get $n))
    (local.get $p)))`;

const wabt = await initWabt();
const fakeWasm = [...wabt.parseWat('fake.wat', FAKE_WAT).toBinary({}).buffer];
const fakeModule = (fields: object = {}) =>
  emptyModule({ svc: JSON.stringify({ ...info, ...fields }), 'svc.constants': 'const' }, fakeWasm);
const fake = () => {
  const { module, info: loaded } = loadModule(fakeModule());
  return instantiate(module, { functions: {}, services: defaultServices(loaded) });
};

test('instantiate binds the JS functions the module names from the table it is given', () => {
  const { module, info: loaded } = loadModule(fakeModule({ jsFunctions: ['f'] }));
  const services = defaultServices(loaded);
  const instance = instantiate(module, { functions: { f: () => null }, services });
  assert.equal(instance.info.jsFunctions, ['f']);
  assert.throws(() => instantiate(module, { functions: {}, services }), /the module calls JS function "f"/);
});

test('instances of one module have their own memory', () => {
  const { module, info: loaded } = loadModule(fakeModule());
  const options = { functions: {}, services: defaultServices(loaded) };
  const [a, b] = [instantiate(module, options), instantiate(module, options)];
  a.runBatch(new Uint8Array(200_000));
  assert.ok(a.memoryBytes() > b.memoryBytes());
  assert.is(Buffer.from(b.runBatch(Buffer.from('C'))).toString(), 'const');
});

test('runBatch copies the input in, the output out, and frees the arena', () => {
  const instance = fake();
  const input = new Uint8Array([1, 2, 3, 4, 5]);
  const output = instance.runBatch(input);
  assert.equal(output, input);
  assert.is(instance.arenaUsed(), 0);
  assert.equal(instance.runBatch(new Uint8Array([9])), new Uint8Array([9]));
});

test('the constants section is in memory when svc_init runs, and stays there', () => {
  const instance = fake();
  instance.runBatch(new Uint8Array(100_000));
  assert.is(Buffer.from(instance.runBatch(Buffer.from('C'))).toString(), 'const');
});

test('inputs larger than the memory make it grow', () => {
  const input = new Uint8Array(300_000).map((_, i) => i % 251);
  assert.equal(fake().runBatch(input), input);
});

test('runNdjson returns the output and the errors with their line in the whole input', () => {
  const result = fake().runNdjson(Buffer.from('{"a":1}\n{"a":2}\n'), 0);
  assert.is(result.output.toString(), '{"a":1}\n{"a":2}\n');
  assert.equal(result.errors, [{ line: 1, message: 'bad' }]);
});

test('runNdjson runs large inputs in pieces, numbering lines across them', () => {
  const line = JSON.stringify({ pad: 'x'.repeat(1000) }) + '\n';
  const lineCount = Math.ceil((2.5 * NDJSON_CHUNK_BYTES) / line.length);
  const input = Buffer.from(line.repeat(lineCount));
  const instance = fake();
  const result = instance.runNdjson(input, 0);
  assert.ok(result.output.equals(input));
  const firstLines = [...ndjsonChunks(input, NDJSON_CHUNK_BYTES)].map((c) => c.firstLine);
  assert.is(firstLines.length, 3);
  assert.equal(
    result.errors,
    firstLines.map((first) => ({ line: first + 1, message: 'bad' })),
  );
  assert.is(instance.arenaUsed(), 0);
});

/** Whether `bytes` is a view of the instance's memory (not a copy of its own). */
const inMemoryOf = (instance: ReturnType<typeof fake>, bytes: Uint8Array) =>
  bytes.buffer.byteLength === instance.memoryBytes();

test('runBatch with reuse returns a view of module memory, valid until the next call', () => {
  const instance = fake();
  const output = instance.runBatch(new Uint8Array([1, 2, 3]), { reuse: true });
  assert.equal([...output], [1, 2, 3]);
  assert.ok(inMemoryOf(instance, output));
  assert.not.ok(inMemoryOf(instance, instance.runBatch(new Uint8Array([1, 2, 3]))));
  // The next call's input lands where the first output was.
  instance.runBatch(new Uint8Array([7, 8, 9]), { reuse: true });
  assert.equal([...output], [7, 8, 9]);
});

test("runNdjson with reuse: one call's output is a view of module memory; pieces gather in a buffer the instance keeps", () => {
  const instance = fake();
  const small = instance.runNdjson(Buffer.from('{"a":1}\n'), 0, { reuse: true });
  assert.is(small.output.toString(), '{"a":1}\n');
  assert.ok(inMemoryOf(instance, small.output));
  const line = JSON.stringify({ pad: 'x'.repeat(1000) }) + '\n';
  const input = Buffer.from(line.repeat(Math.ceil((2.5 * NDJSON_CHUNK_BYTES) / line.length)));
  const first = instance.runNdjson(input, 0, { reuse: true });
  assert.ok(first.output.equals(input));
  assert.not.ok(inMemoryOf(instance, first.output));
  assert.is(first.errors.length, 3);
  const second = instance.runNdjson(input, 0, { reuse: true });
  assert.ok(second.output.equals(input));
  assert.is(second.output.buffer, first.output.buffer);
  assert.is.not(instance.runNdjson(input, 0).output.buffer, first.output.buffer);
});

test('runNdjson on empty input outputs nothing', () => {
  assert.equal(fake().runNdjson(new Uint8Array(0), 0), { output: Buffer.alloc(0), errors: [], lines: 0 });
});

const text = (chunks: Iterable<{ bytes: Uint8Array; firstLine: number }>) =>
  [...chunks].map(({ bytes, firstLine }) => [Buffer.from(bytes).toString(), firstLine]);

test('ndjsonChunks keeps small inputs whole', () => {
  assert.equal(text(ndjsonChunks(Buffer.from('{"a":1}\n{"a":2}\n'), 100)), [['{"a":1}\n{"a":2}\n', 0]]);
  assert.equal(text(ndjsonChunks(Buffer.from('1\n2'), 3)), [['1\n2', 0]]);
  assert.equal(text(ndjsonChunks(Buffer.from(''), 3)), []);
});

test('ndjsonChunks cuts after the last newline that fits, counting lines', () => {
  assert.equal(text(ndjsonChunks(Buffer.from('aa\nbb\ncc\ndd'), 7)), [
    ['aa\nbb\n', 0],
    ['cc\ndd', 2],
  ]);
  assert.equal(text(ndjsonChunks(Buffer.from('a\n\n\nb\nc\n'), 4)), [
    ['a\n\n\n', 0],
    ['b\nc\n', 3],
  ]);
  assert.equal(text(ndjsonChunks(Buffer.from('ab\ncd\n'), 3)), [
    ['ab\n', 0],
    ['cd\n', 1],
  ]);
});

test('ndjsonChunks counts the lines of a piece when asked, also after the next piece; the last may lack its newline', () => {
  const lines = (input: string, max: number) => [...ndjsonChunks(Buffer.from(input), max)].map((chunk) => chunk.lines);
  assert.equal(lines('aa\nbb\ncc\ndd', 7), [2, 2]);
  assert.equal(lines('a\n\n\nb\nc\n', 4), [3, 2]);
  assert.equal(lines('1\n2', 3), [2]);
});

test('ndjsonChunks keeps a line longer than the limit whole', () => {
  assert.equal(text(ndjsonChunks(Buffer.from('a\nlong line\nb\n'), 4)), [
    ['a\n', 0],
    ['long line\n', 1],
    ['b\n', 2],
  ]);
  assert.equal(text(ndjsonChunks(Buffer.from('long line'), 4)), [['long line', 0]]);
  assert.equal(text(ndjsonChunks(Buffer.from('long line\n'), 4)), [['long line\n', 0]]);
});

test('ndjsonChunks pieces put together are the input', () => {
  const lines = Array.from({ length: 500 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i % 37) }));
  const input = Buffer.from(lines.join('\n') + '\n');
  for (const max of [1, 10, 64, 1000, 100_000]) {
    const chunks = [...ndjsonChunks(input, max)];
    assert.equal(Buffer.concat(chunks.map((c) => c.bytes)), input);
    for (const { bytes, firstLine } of chunks) {
      assert.is(Buffer.from(bytes).toString().split('\n')[0], lines[firstLine]);
      if (max >= 100) assert.ok(bytes.length <= max);
    }
  }
});

// ---- chain and condition modes, on compiled programs ----------------------------------------------------

const instanceOf = async (source: string) => loadInstance((await compileModule(source, { timezone: 'UTC' })).wasm);
const batch = (events: InputEvent[]) => new Uint8Array(encodeBatch(events, 0));

test('runChain: a chain of two programs passes batches on without decoding them in between', async () => {
  const split =
    await instanceOf(`if .fan == true { . = [{ "i": .i, "part": 1 }, { "i": .i, "part": 2 }] } else { .one = true }
%seen = true`);
  const count = await instanceOf(`.n = int!(.i) * 10`);
  const input = batch([{ event: { i: 1, fan: true }, kind: 'trace' }, { event: { i: 2 } }, { event: 'text' }]);
  const first = split.runChain(input);
  assert.is(first.count, 4);
  const second = count.runChain(first.output);
  assert.equal(second.count, 3);
  assert.equal(decodeBatch(second.output).events, [
    { kind: 'trace', metadata: { seen: true }, event: { i: 1n, part: 1n, n: 10n } },
    { kind: 'trace', metadata: { seen: true }, event: { i: 1n, part: 2n, n: 10n } },
    { kind: 'log', metadata: { seen: true }, event: { i: 2n, one: true, n: 20n } },
  ]);
  const [failure] = second.failures;
  assert.equal([second.failures.length, failure!.index, failure!.outcome], [1, 3, 'error']);
  assert.is(failure!.message, 'function call error for "int" at (5:13): expected integer, got null');
  const rerouted = new BatchWriter();
  rerouted.appendRaw(failure!.record!);
  assert.equal(decodeBatch(rerouted.finish()).events, [
    { kind: 'log', metadata: { seen: true }, event: { one: true } },
  ]);
  assert.is(split.arenaUsed(), 0);
});

test('runChain: errors and aborts hand back the record as it arrived; KEEP_* forward it in its place', async () => {
  const instance = await instanceOf(`.changed = true
if .mode == "abort" { abort "stop: " + string!(.mode) }
.n = to_int!(.mode)`);
  const input = batch(['1', 'abort', 'x', '2'].map((mode) => ({ event: { mode } })));
  const records = [...new BatchReader(input)].map((r) => r.record);
  const dropped = instance.runChain(input);
  assert.equal(
    decodeBatch(dropped.output).events.map((e) => e.event),
    [
      { mode: '1', changed: true, n: 1n },
      { mode: '2', changed: true, n: 2n },
    ],
  );
  assert.equal(
    dropped.failures.map((f) => [f.index, f.outcome, f.record]),
    [
      [1, 'aborted', records[1]],
      [2, 'error', records[2]],
    ],
  );
  assert.is(dropped.failures[0]!.message, 'stop: abort');
  const kept = instance.runChain(input, ChainFlag.KEEP_ON_ERROR | ChainFlag.KEEP_ON_ABORT);
  assert.is(kept.count, 4);
  const out = [...new BatchReader(kept.output)].map((r) => r.record);
  assert.equal([out[1], out[2]], [records[1], records[2]]);
  assert.equal(instance.runChain(input, ChainFlag.KEEP_ON_ABORT).count, 3);
});

test('runCondition: true sets the bit; false, other values, errors and aborts leave it clear', async () => {
  const instance = await instanceOf(`if .v == "abort" { abort }
if .v == "error" { to_int!(.v) > 0 } else { .v }`);
  const values = [true, false, 'abort', 1, 'error', true, null, true, true, 'yes'];
  const input = batch(values.map((v) => ({ event: { v } })));
  const { bits, failures } = instance.runCondition(input);
  assert.equal([...bits], [0b1010_0001, 0b0000_0001]);
  assert.equal(
    failures.map(({ index, outcome, record }) => [index, outcome, record]),
    [
      [2, 'aborted', undefined],
      [4, 'error', undefined],
    ],
  );
  assert.is(failures[0]!.message, 'aborted');
  const { matched, unmatchedCount } = splitByBitmap(input, bits);
  assert.equal(
    decodeBatch(matched).events.map((e) => e.event),
    [{ v: true }, { v: true }, { v: true }, { v: true }],
  );
  assert.is(unmatchedCount, 6);
  assert.is(instance.arenaUsed(), 0);
});

test('runFramed: frames decoded and stamped, the program run, the events encoded; failures keep the event as decoded', async () => {
  const { wasm } = await compileModule('.b = to_int!(.a) + 1\nif .b == 3 { abort }', { framed: true });
  const instance = await loadInstance(wasm);
  assert.ok(instance.framed);
  const input = new TextEncoder().encode('{"a":1}\n{"a":"x"}\n{"a":2}\nnope\n[{"a":5},{"a":6}]\n');
  const decode = {
    framing: { method: 'newline_delimited' as const },
    codec: 'json' as const,
    stamp: { src: 's' },
    eof: true,
  };
  const encoded = instance.runFramed(
    input,
    decode,
    { codec: 'json' },
    ChainFlag.KEEP_ON_ERROR | ChainFlag.FAILED_RECORDS,
  );
  assert.is(
    new TextDecoder().decode(encoded.output),
    '{"a":1,"b":2,"src":"s"}\n{"a":"x","src":"s"}\n{"a":5,"b":6,"src":"s"}\n{"a":6,"b":7,"src":"s"}\n',
  );
  assert.is(encoded.count, 4);
  assert.is(encoded.decoded, 5);
  assert.equal(encoded.decodeErrors, [
    { frame: 3, message: 'Error parsing JSON: Error("expected ident", line: 1, column: 2)' },
  ]);
  assert.equal(
    encoded.failures.map((failure) => [failure.index, failure.outcome]),
    [
      [1, 'error'],
      [2, 'aborted'],
    ],
  );
  // The aborted event's record is the event as decoded, before the program set `.b`.
  const record = encoded.failures[1]!.record!;
  const batch = new Uint8Array(12 + record.length);
  batch.set(encodeBatch([], 0).subarray(0, 12));
  new DataView(batch.buffer).setUint32(8, 1, true);
  batch.set(record, 12);
  assert.equal(decodeBatch(batch).events[0]!.event, { a: 2n, src: 's' });

  const chained = instance.runFramed(input, decode, undefined, 0);
  assert.equal(
    decodeBatch(chained.output).events.map((record) => record.event),
    [
      { a: 1n, b: 2n, src: 's' },
      { a: 5n, b: 6n, src: 's' },
      { a: 6n, b: 7n, src: 's' },
    ],
  );
  assert.is(chained.failures[0]!.record, undefined);
});

test('runFramed of a condition: the events it holds for go out as decoded; failed ones are failures without their record', async () => {
  const { wasm } = await compileModule('.seen = true\n.a == 1 || to_int!(.b) > 0', { framed: true, condition: true });
  const instance = await loadInstance(wasm);
  const input = new TextEncoder().encode('{"a":1}\n{"a":2,"b":"x"}\n{"a":2,"b":5}\nnope\n{"a":3}\n');
  const decode = {
    framing: { method: 'newline_delimited' as const },
    codec: 'json' as const,
    stamp: { src: 's' },
    eof: true,
  };
  const encoded = instance.runFramed(input, decode, { codec: 'json' }, ChainFlag.CONDITION | ChainFlag.KEEP_ON_ERROR);
  assert.is(new TextDecoder().decode(encoded.output), '{"a":1,"src":"s"}\n{"a":2,"b":5,"src":"s"}\n');
  assert.is(encoded.count, 2);
  assert.is(encoded.decoded, 4);
  assert.is(encoded.decodeErrors.length, 1);
  assert.equal(
    encoded.failures.map((failure) => [failure.index, failure.outcome, failure.record]),
    [[1, 'error', undefined]],
  );
  const batch = instance.runFramed(input, decode, undefined, ChainFlag.CONDITION);
  assert.equal(
    decodeBatch(batch.output).events.map((record) => record.event),
    [
      { a: 1n, src: 's' },
      { a: 2n, b: 5n, src: 's' },
    ],
  );
});

// A call that traps (here an event past the memory limit) runs again in steps: decode, run, encode.
test('runFramed after a trap: the event that trapped fails, the others run as in one call', async () => {
  const framedModule = async (source: string, condition: boolean) => {
    const { module, info: moduleInfo } = loadModule((await compileModule(source, { framed: true, condition })).wasm);
    return instantiate(module, { functions: {}, services: defaultServices(moduleInfo), memoryLimit: 4 * 2 ** 20 });
  };
  const input = new TextEncoder().encode('{"s":"ab","n":1}\n{"s":"ab","n":10000000}\n{"s":"","n":1}\n');
  const decode = { framing: { method: 'newline_delimited' as const }, codec: 'json' as const, eof: true };
  const condition = await framedModule('strlen(string!(.s) * to_int!(.n)) > 0', true);
  const held = condition.runFramed(input, decode, { codec: 'json' }, ChainFlag.CONDITION);
  assert.is(new TextDecoder().decode(held.output), '{"n":1,"s":"ab"}\n');
  assert.equal(
    held.failures.map((failure) => [failure.index, failure.outcome]),
    [[1, 'error']],
  );
  assert.match(held.failures[0]!.message, /memory limit exceeded/);
  const program = await framedModule('.l = strlen(string!(.s) * to_int!(.n))', false);
  const ran = program.runFramed(input, decode, { codec: 'json' }, 0);
  assert.is(new TextDecoder().decode(ran.output), '{"l":2,"n":1,"s":"ab"}\n{"l":0,"n":1,"s":""}\n');
  assert.equal(
    ran.failures.map((failure) => [failure.index, failure.outcome]),
    [[1, 'error']],
  );
});

test('runFramed with LATE_STAMP: replaced events without the stamp, events forwarded as decoded with it', async () => {
  const { wasm } = await compileModule('. = object!(parse_json!(.message))\n.n = to_int!(.n) + 1', { framed: true });
  const instance = await loadInstance(wasm);
  assert.equal(instance.info.eventReplacedAfterReading, ['message']);
  const input = new TextEncoder().encode('{"n":1}\nnope\n{"n":2}\n');
  const decode = {
    framing: { method: 'newline_delimited' as const },
    codec: 'bytes' as const,
    stamp: { host: 'h', source_type: 'file' },
    eof: true,
  };
  const flags = ChainFlag.KEEP_ON_ERROR | ChainFlag.FAILED_RECORDS;
  const late = instance.runFramed(input, decode, { codec: 'json' }, flags | ChainFlag.LATE_STAMP);
  const early = instance.runFramed(input, decode, { codec: 'json' }, flags);
  const expected = '{"n":2}\n{"host":"h","message":"nope","source_type":"file"}\n{"n":3}\n';
  assert.is(new TextDecoder().decode(late.output), expected);
  assert.is(new TextDecoder().decode(early.output), expected);
  const record = late.failures[0]!.record!;
  const batch = new Uint8Array(12 + record.length);
  batch.set(encodeBatch([], 0).subarray(0, 12));
  new DataView(batch.buffer).setUint32(8, 1, true);
  batch.set(record, 12);
  assert.equal(decodeBatch(batch).events[0]!.event, { host: 'h', message: 'nope', source_type: 'file' });
});

test('modules are compiled without the fused entry unless asked', async () => {
  const { wasm } = await compileModule('.a = 1');
  assert.not.ok((await loadInstance(wasm)).framed);
});

test.run();
