// Issue 8, wasm resource exhaustion and traps: one event whose program asks for more memory than the
// instance may have (or than wasm32 can address), or traps, fails alone with a runtime error; the instance
// starts afresh and every other event of the call, the stream and the pipeline comes out, in order. The
// codec module (sources' decoders, sinks' encoders) recovers the same way: the frame or event fails alone.
// The cheap cases use a small memory limit, so that an ordinary string hits it; `"ab" * 2.5e9` asks for
// 5 GB and is refused before anything is allocated. SVC_HEAVY_TESTS=1 adds values past 2 GiB.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatchFlag, ChainFlag, decodeBatch, decodeOutput, encodeBatch } from '../../abi/batch.js';
import {
  compile,
  compileToModule,
  loadJsFunctions,
  NDJSON_PRINT_OBJECT,
  RemapRuntimeError,
} from '../../runtime/index.js';
import { CodecModule } from '../../runtime/codec-module.js';
import { instantiate } from '../../runtime/module.js';
import { ReplSession } from '../../runtime/repl.js';
import { defaultServices } from '../../runtime/services.js';
import remap from '../../host/components/transforms/remap.js';
import { batchOf, eventsOf, runnerOf } from '../host/support/components.js';
import { logLines, runSvc, writeFiles } from '../host/support/svc.js';

const MiB = 2 ** 20;
/** A string of `2 * .n` bytes; its length is the result and `.len`. */
const REPEAT = '.len = strlen("ab" * to_int!(.n))';
const BEYOND_WASM32 = 'out of memory: this event needs more than the 4 GiB a program can address';
const limitExceeded = (limit: string) =>
  `memory limit exceeded: this event needs more than the ${limit} the program may use`;
/** Under a 4 MiB limit: 6 MB, too much for one event; 1 MB each, fine alone but not eight at once. */
const SMALL_LIMIT = 4 * MiB;
const TOO_BIG = 3_000_000;
const ONE_MB = 500_000;

const root = fileURLToPath(new URL('../../../', import.meta.url));
const heavy = process.env.SVC_HEAVY_TESTS === '1';

async function instanceOf(source: string, options: { condition?: boolean } = {}) {
  const { module, info } = await compileToModule(source, options);
  return instantiate(module, {
    functions: await loadJsFunctions(info.jsFunctions),
    services: defaultServices(info),
    memoryLimit: SMALL_LIMIT,
  });
}

function assertRuntimeError(run: () => unknown, message: string): void {
  assert.throws(run, (error: Error) => error instanceof RemapRuntimeError && error.message === message);
}

// ---- library API -----------------------------------------------------------------------------------

test('a string past what wasm32 can address fails that event with a runtime error; the next one runs', async () => {
  const program = await compile(REPEAT);
  assertRuntimeError(() => program.run({ n: 2_500_000_000 }), BEYOND_WASM32);
  assert.equal(program.run({ n: 3 }).event, { n: 3n, len: 6n });
});

test('an event that needs more than the memory limit fails with a runtime error naming the limit', async () => {
  const program = await compile(REPEAT, { memoryLimit: SMALL_LIMIT });
  assertRuntimeError(() => program.run({ n: TOO_BIG }), limitExceeded('4 MiB'));
  assert.equal(program.run({ n: 10 }).event, { n: 10n, len: 20n });
});

test('the memory limit is checked when the program is set up', async () => {
  await compile(REPEAT, { memoryLimit: 1000 }).then(
    () => assert.unreachable('a 1000-byte limit was accepted'),
    (error: Error) =>
      assert.is(
        error.message,
        'the memory limit must be a whole number of bytes from 1048576 (1 MiB) to 4294967296 (4 GiB); got 1000',
      ),
  );
});

test('runBatch: exactly the events that trap fail, with their input as it was; the others come out in order', async () => {
  const program = await compile(REPEAT, { memoryLimit: SMALL_LIMIT });
  const ns = [1, TOO_BIG, 2, 2_500_000_000, 3];
  // A reused output too: the pieces run again after the trap overwrite each other's memory.
  for (const options of [{}, { reuse: true }]) {
    const records = decodeOutput(
      program.runBatch(
        encodeBatch(
          ns.map((n) => ({ event: { n } })),
          BatchFlag.RESULTS | BatchFlag.RAW,
        ),
        options,
      ),
    );
    assert.equal(
      records.map((record) => record.outcome),
      ['kept', 'error', 'kept', 'error', 'kept'],
    );
    assert.equal(
      records.map((record) =>
        record.outcome === 'kept' ? record.result : record.outcome === 'error' ? record.message : null,
      ),
      [2n, limitExceeded('4 MiB'), 4n, BEYOND_WASM32, 6n],
    );
    assert.equal(records[1], {
      kind: 'log',
      outcome: 'error',
      message: limitExceeded('4 MiB'),
      metadata: {},
      event: { n: BigInt(TOO_BIG) },
    });
  }
});

test('runBatch: events that fit alone but not together in one arena all come out', async () => {
  const program = await compile(REPEAT, { memoryLimit: SMALL_LIMIT });
  const events = Array.from({ length: 8 }, (_, i) => ({ event: { n: ONE_MB + i } }));
  const records = decodeOutput(program.runBatch(encodeBatch(events, BatchFlag.RESULTS)));
  assert.equal(
    records.map((record) => (record.outcome === 'kept' ? record.result : record.outcome)),
    events.map(({ event }) => BigInt(2 * event.n)),
  );
});

test('runNdjson: the trapping line is an error with its line number; the other lines come out in order', async () => {
  const program = await compile(REPEAT, { memoryLimit: SMALL_LIMIT });
  const input = Buffer.from(`{"n":1}\n{"n":${TOO_BIG}}\n\n{"n":2}\n{"n":2500000000}\n{"n":3}`);
  for (const options of [{}, { reuse: true }]) {
    const { output, errors } = program.runNdjson(input, NDJSON_PRINT_OBJECT, options);
    assert.is(output.toString(), '{ "len": 2, "n": 1 }\n{ "len": 4, "n": 2 }\n{ "len": 6, "n": 3 }\n');
    assert.equal(errors, [
      { line: 1, message: limitExceeded('4 MiB') },
      { line: 4, message: BEYOND_WASM32 },
    ]);
  }
});

test('runChain: a trapping record is a failure with its index, forwarded unchanged with KEEP_ON_ERROR', async () => {
  const instance = await instanceOf(REPEAT);
  const input = encodeBatch([{ event: { n: 1 } }, { event: { n: TOO_BIG } }, { event: { n: 2 } }], 0);
  for (const keep of [0, ChainFlag.KEEP_ON_ERROR]) {
    const { output, count, failures } = instance.runChain(input, keep);
    const kept = keep ? [{ n: BigInt(TOO_BIG) }] : [];
    assert.equal(
      decodeBatch(output).events.map(({ event }) => event),
      [{ n: 1n, len: 2n }, ...kept, { n: 2n, len: 4n }],
    );
    assert.is(count, keep ? 3 : 2);
    assert.equal(
      failures.map(({ index, outcome, message }) => ({ index, outcome, message })),
      [{ index: 1, outcome: 'error', message: limitExceeded('4 MiB') }],
    );
  }
});

test('log() lines of a call that trapped are dropped: each event that completes logs once, in order', async () => {
  const { module, info } = await compileToModule(`log("event " + to_string!(.n), rate_limit_secs: 0)\n${REPEAT}`);
  const lines: string[] = [];
  const services = {
    ...defaultServices(info),
    log: (level: string, message: string) => lines.push(`${level}: ${message}`),
  };
  const instance = instantiate(module, {
    functions: await loadJsFunctions(info.jsFunctions),
    services,
    memoryLimit: SMALL_LIMIT,
  });
  const records = decodeOutput(
    instance.runBatch(
      encodeBatch(
        [1, TOO_BIG, 2, 3].map((n) => ({ event: { n } })),
        0,
      ),
    ),
  );
  assert.equal(
    records.map((record) => record.outcome),
    ['kept', 'error', 'kept', 'kept'],
  );
  assert.equal(lines, ['info: event 1', 'info: event 2', 'info: event 3']);
});

test('runCondition: a trapping record fails with its bit clear; the other bits are as computed', async () => {
  const instance = await instanceOf('strlen("ab" * to_int!(.n)) > 3', { condition: true });
  const { bits, failures } = instance.runCondition(
    encodeBatch(
      [1, TOO_BIG, 2, 3, 1].map((n) => ({ event: { n } })),
      0,
    ),
  );
  assert.equal([...bits], [0b01100]);
  assert.equal(failures, [{ index: 1, outcome: 'error', message: limitExceeded('4 MiB') }]);
});

test('an instance whose memory grew past half its limit is replaced after the call: the memory is given back', async () => {
  const program = await compile(REPEAT, { memoryLimit: 64 * MiB });
  const before = program.memoryBytes();
  assert.equal(program.run({ n: 20_000_000 }).event, { n: 20_000_000n, len: 40_000_000n });
  assert.is(program.memoryBytes(), before);
});

test('a repeated string is its piece the given number of times, for every count', async () => {
  const program = await compile('"ab🎉" * to_int!(.n)');
  for (const n of [0, 1, 2, 3, 5, 7, 8, 9, 1000, 4097, 65_537])
    assert.is(program.run({ n }).result, 'ab🎉'.repeat(n), `n = ${n}`);
});

test('the REPL survives a trapping line: the line fails, the variables and the event stay as they were', async () => {
  const session = new ReplSession();
  assert.is(await session.evaluate('a = 5; .x = 1'), 1n);
  await session.evaluate('.y = 2; b = "ab" * 2500000000').then(
    () => assert.unreachable('the line ran'),
    (error: Error) => assert.ok(error instanceof RemapRuntimeError && error.message === BEYOND_WASM32, error.message),
  );
  assert.is(await session.evaluate('a + 1'), 6n);
  assert.is(await session.evaluate('b'), null);
  assert.equal(session.event, { x: 1n });
});

// ---- codec module (sources' decoders, sinks' encoders) ------------------------------------------------

/** 400,000 zeros in an array: 800 KB of JSON, more than 4 MiB decoded. */
const BIG_FRAME = `{"a":[${Array(400_000).fill('0').join(',')}]}`;
const codecLimit = (limit: string) =>
  `memory limit exceeded: this event needs more than the ${limit} the codec module may use`;

test('codec module: a frame whose decoding traps is a decode error; the frames around it decode', () => {
  const codec = new CodecModule({ memoryLimit: SMALL_LIMIT });
  const input = Buffer.from(`{"n":1}\nnot json\n${BIG_FRAME}\n{"n":2}\n{"n":3`);
  for (let round = 0; round < 2; round++) {
    const result = codec.decode(input, { framing: { method: 'newline_delimited' }, codec: 'json' });
    assert.equal(
      decodeBatch(result.batch).events.map((record) => record.event),
      [{ n: 1n }, { n: 2n }],
    );
    assert.is(result.count, 2);
    assert.equal(
      result.errors.map((error) => error.frame),
      [1, 2],
    );
    assert.is(result.errors[1]!.message, codecLimit('4 MiB'));
    assert.is(result.consumed, input.length - '{"n":3'.length);
  }
});

test('codec module: an event whose encoding traps is an encode error, left out; the others are encoded', () => {
  const codec = new CodecModule({ memoryLimit: SMALL_LIMIT });
  // 1.5 MB of control characters, 9 MB as JSON escapes.
  const batch = encodeBatch(
    [{ event: { n: 1 } }, { event: { m: '\u0001'.repeat(1_500_000) } }, { event: { n: 2 } }],
    0,
  );
  // A reused output too: the pieces encoded again after the trap overwrite each other's memory.
  for (const options of [{}, { reuse: true }]) {
    const encoded = codec.encode(batch, { codec: 'json' }, options);
    assert.is(Buffer.from(encoded.bytes).toString(), '{"n":1}\n{"n":2}\n');
    assert.equal(encoded.errors, [{ event: 1, message: codecLimit('4 MiB') }]);
  }
  assert.equal(
    codec.encodeEach(batch, { codec: 'json' }).map((payload) => Buffer.from(payload).toString()),
    ['{"n":1}', '{"n":2}'],
  );
});

// ---- svc vrl ---------------------------------------------------------------------------------------

test('svc vrl: the trapping line prints a runtime error on stderr, every other line prints, exit status 0', () => {
  const input = '{"n":1}\n{"n":2500000000}\n{"n":2}\n';
  const result = spawnSync(process.execPath, [join(root, 'dist/bin/svc.js'), 'vrl', '-o', '-i', '-', REPEAT], {
    cwd: root,
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.is(result.stdout, '{ "len": 2, "n": 1 }\n{ "len": 4, "n": 2 }\n', result.stderr);
  assert.is(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
  assert.ok(result.stderr.includes(BEYOND_WASM32), result.stderr);
  assert.is(result.status, 0);
});

// ---- pipeline --------------------------------------------------------------------------------------

const PIPELINE_PROGRAM = `if .message == "big" { .x = "ab" * 3000000 }
.seen = true`;

test('remap: a trapping event is counted as an error and dropped or rerouted; the transform goes on', async () => {
  const { runner } = await runnerOf(remap, {
    source: PIPELINE_PROGRAM,
    max_memory_bytes: SMALL_LIMIT,
    drop_on_error: true,
    reroute_dropped: true,
  });
  for (let round = 0; round < 2; round++) {
    const result = runner.process(batchOf([{ message: 'a' }, { message: 'big' }, { message: 'b' }]));
    assert.equal(eventsOf(result.outputs[0]!.batch), [
      { message: 'a', seen: true },
      { message: 'b', seen: true },
    ]);
    const dropped = eventsOf(result.outputs[1]!.batch) as Array<{
      message: string;
      metadata: { dropped: { message: string } };
    }>;
    assert.equal(
      dropped.map((event) => [event.message, event.metadata.dropped.message]),
      [['big', limitExceeded('4 MiB')]],
    );
    assert.equal(result.errors, [
      {
        count: 1,
        errorType: 'conversion_failed',
        stage: 'processing',
        message: `Mapping failed with event: ${limitExceeded('4 MiB')}`,
      },
    ]);
  }
});

test('remap on frames (decode, program and encode in one call): a trapping event fails alone', async () => {
  const { runner } = await runnerOf(remap, {
    source: PIPELINE_PROGRAM,
    max_memory_bytes: SMALL_LIMIT,
    drop_on_error: true,
  });
  const frames = { framing: { method: 'newline_delimited' as const }, codec: 'bytes' as const };
  const result = runner.process({ bytes: Buffer.from('a\nbig\nb\n'), count: 3, frames });
  assert.equal(eventsOf(result.outputs[0]!.batch), [
    { message: 'a', seen: true },
    { message: 'b', seen: true },
  ]);
  assert.equal(result.decoded?.count, 3);
  assert.equal(result.errors, [
    {
      count: 1,
      errorType: 'conversion_failed',
      stage: 'processing',
      message: `Mapping failed with event: ${limitExceeded('4 MiB')}`,
    },
  ]);
  const encoded = runner.process(
    { bytes: Buffer.from('a\nbig\nb\n'), count: 3, frames },
    { codec: 'csv', csv: { fields: ['message', 'seen'] } },
  );
  assert.ok(encoded.outputs[0]!.batch.encoded);
  assert.is(Buffer.from(encoded.outputs[0]!.batch.bytes).toString(), 'a,true\nb,true\n');
  assert.is(encoded.outputs[0]!.batch.count, 2);
});

for (const threads of ['1', '2']) {
  test(`svc pipeline (${threads} thread${threads === '1' ? '' : 's'}): the trapping event is logged and dropped, the others reach the sink, exit 0`, async () => {
    const dir = writeFiles({
      'svc.yaml': `
sources:
  in:
    type: stdin
transforms:
  shape:
    type: remap
    inputs: [in]
    drop_on_error: true
    max_memory_bytes: ${SMALL_LIMIT}
    source: |
${PIPELINE_PROGRAM.replace(/^/gm, '      ')}
sinks:
  out:
    type: console
    inputs: [shape]
    encoding: { codec: json }
`,
    });
    const { status, stdout, stderr } = await runSvc(['--config', join(dir, 'svc.yaml')], {
      stdin: 'a\nbig\nb\n',
      env: { SVC_THREADS: threads },
    });
    assert.equal(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).message),
      ['a', 'b'],
      stderr,
    );
    assert.match(logLines(stderr), `Mapping failed with event: ${limitExceeded('4 MiB')}`);
    assert.is(status, 0);
  });
}

// ---- past 2 GiB (SVC_HEAVY_TESTS=1: about 5 GB of memory) -------------------------------------------

if (heavy) {
  test('heavy: a value past 2 GiB is read back right (addresses are unsigned), and its memory is given back', async () => {
    const program = await compile(REPEAT, { memoryLimit: 2 ** 32 });
    assert.equal(program.run({ n: 1_200_000_000 }).event, { n: 1_200_000_000n, len: 2_400_000_000n });
    assert.ok(program.memoryBytes() < 256 * MiB);
    const { output, errors } = program.runNdjson(
      Buffer.from('{"n":1}\n{"n":1200000000}\n{"n":2200000000}\n{"n":2}\n'),
      0,
    );
    assert.is(output.toString(), '2\n2400000000\n4\n');
    assert.equal(errors, [{ line: 2, message: BEYOND_WASM32 }]);
  });

  test('heavy: a 295 MB repetition on each of 100 events (the fuzzer\'s `is_ipv4("ab" * 147483648)`) completes', () => {
    // One copy per repetition took over a second an event: the fuzzer's 30 s per program passed.
    const input = '{}\n'.repeat(100);
    const result = spawnSync(
      process.execPath,
      [join(root, 'dist/bin/svc.js'), 'vrl', '-i', '-', 'is_ipv4("ab" * 147483648)'],
      { cwd: root, input, encoding: 'utf8', timeout: 120_000 },
    );
    assert.is(result.signal, null, 'killed: the run hung');
    assert.is(result.stdout, 'false\n'.repeat(100), result.stderr);
    assert.is(result.status, 0);
  });

  test('heavy: an error text written past 2 GiB is read back whole', async () => {
    // Longer than the error buffer's first 64 bytes: the buffer grows, past the string, past 2 GiB.
    const program = await compile(
      `${REPEAT}\nif .len > 1000 { abort "a string of " + to_string(.len) + " bytes" + " (too long)" * 8 }`,
      { memoryLimit: 2 ** 32 },
    );
    const { output, errors } = program.runNdjson(
      Buffer.from('{"n":1}\n{"n":1200000000}\n{"n":2}\n'),
      NDJSON_PRINT_OBJECT,
    );
    assert.is(output.toString(), '{ "len": 2, "n": 1 }\n{ "len": 4, "n": 2 }\n');
    assert.equal(errors, [{ line: 1, message: `a string of 2400000000 bytes${' (too long)'.repeat(8)}` }]);
  });
}

test.run();
