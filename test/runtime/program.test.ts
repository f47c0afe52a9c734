import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CompileOptions } from '../../compiler/compile.js';
import { compileModule } from '../../runtime/index.js';
import {
  ABI_VERSION,
  BatchFlag,
  NdjsonFlag,
  decodeBatch,
  decodeOutput,
  encodeBatch,
  encodeOutput,
  type OutputRecord,
} from '../../abi/batch.js';
import { readModuleInfo } from '../../abi/module-info.js';
import { instantiate, loadInstance, loadModule, NDJSON_CHUNK_BYTES } from '../../runtime/module.js';
import { loadJsFunctions } from '../../runtime/js-functions/index.js';
import { defaultServices, type InstanceServices, type LogLevel } from '../../runtime/services.js';
import { Program, RemapRuntimeError } from '../../runtime/program.js';
import { Timestamp, type RemapValue } from '../../abi/values.js';

/** A stand-in instance: answers each input record with `answer(event)` and records the flags it got. */
function stubProgram(answer: (event: RemapValue) => OutputRecord) {
  const seen: number[] = [];
  const instance = {
    runBatch(input: Uint8Array) {
      const { flags, events } = decodeBatch(input);
      seen.push(flags);
      return encodeOutput(
        events.map(({ event }) => answer(event as RemapValue)),
        flags,
      );
    },
    runNdjson: (input: Uint8Array, flags: number) => ({
      output: Buffer.from(input),
      errors: [{ line: flags, message: 'm' }],
      lines: 1,
    }),
    memoryBytes: () => 65536,
  };
  return { program: new Program(instance, []), seen };
}

test('run asks for the result and the raw target, and returns both', () => {
  const { program, seen } = stubProgram((event) => ({
    kind: 'log',
    outcome: 'kept',
    events: [{ metadata: {}, event: { ...(event as object), b: 2n } }],
    result: 'r',
  }));
  assert.equal(program.run({ a: 1 }), { result: 'r', event: { a: 1n, b: 2n } });
  assert.equal(seen, [BatchFlag.RESULTS | BatchFlag.RAW]);
});

test('run never mutates its input', () => {
  const { program } = stubProgram(() => ({
    kind: 'log',
    outcome: 'kept',
    events: [{ metadata: {}, event: {} }],
    result: null,
  }));
  const input = { a: { b: [1, 2] } };
  const copy = structuredClone(input);
  program.run(input);
  assert.equal(input, copy);
});

test('a runtime error or abort throws RemapRuntimeError with the message and the event as it was', () => {
  for (const outcome of ['error', 'aborted'] as const) {
    const { program } = stubProgram(() => ({
      kind: 'log',
      outcome,
      message: `it ${outcome}`,
      metadata: {},
      event: { a: 5n },
    }));
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
  assert.equal(decodeOutput(output), [
    { kind: 'metric', outcome: 'dropped' },
    { kind: 'metric', outcome: 'dropped' },
  ]);
  assert.equal(seen, [0]);
  assert.equal(program.runNdjson(Buffer.from('x\n'), 2), {
    output: Buffer.from('x\n'),
    errors: [{ line: 2, message: 'm' }],
    lines: 1,
  });
  assert.equal(program.warnings, []);
});

// ---- compiled programs -----------------------------------------------------------------------------

/** Compiles `source` with the code generator and linker; returns the module bytes and the Program. */
async function compiled(source: string, options: CompileOptions = { timezone: 'UTC' }) {
  const { wasm, warnings } = await compileModule(source, options);
  const instance = await loadInstance(wasm);
  return { wasm, instance, program: new Program(instance, warnings) };
}

/** Catches what `fn` throws. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return assert.unreachable('expected an exception');
}

test('a compiled program runs on JS events with the value mapping of the library API', async () => {
  const { program } = await compiled(`.b = 1.5\n.c = [1, "x", null, true]\n.d = t'2020-10-10T16:00:00Z'\n.a`);
  const input = { a: 1, nested: { keep: [1.25] } };
  assert.equal(program.run(input), {
    result: 1n,
    event: {
      a: 1n,
      b: 1.5,
      c: [1n, 'x', null, true],
      d: new Timestamp(1602345600000000000n),
      nested: { keep: [1.25] },
    },
  });
  assert.equal(input, { a: 1, nested: { keep: [1.25] } });
  assert.equal(program.run({ a: 'again' }).result, 'again');
});

test('run returns the target as the program left it, even when it is not an object', async () => {
  const { program } = await compiled('. = [1, {"x": 2}]\n"done"');
  assert.equal(program.run({}), { result: 'done', event: [1n, { x: 2n }] });
});

test('runtime errors and aborts throw RemapRuntimeError with the event as it was', async () => {
  const { program } = await compiled('.a = 2\n.b = upcase!(.message)\nabort "stop"');
  const error = thrown(() => program.run({ a: 1 })) as RemapRuntimeError;
  assert.instance(error, RemapRuntimeError);
  assert.is(error.message, 'function call error for "upcase" at (12:29): expected string, got null');
  assert.equal(error.event, { a: 2n });
  const aborted = thrown(() => program.run({ message: 'x' })) as RemapRuntimeError;
  assert.is(aborted.message, 'stop');
  assert.equal(aborted.event, { a: 2n, b: 'X', message: 'x' });
});

test('warnings are exposed', async () => {
  const { program } = await compiled('"x"\n.a');
  assert.equal(
    program.warnings.map((w) => w.code),
    [900],
  );
});

test('runBatch applies the emission rules per record, keeps metadata and kinds, and isolates errors', async () => {
  const { program } = await compiled('%seen = true\nif .fail == true { abort }\n. = .out');
  const input = encodeBatch(
    [
      { event: { out: { a: 1 } } },
      { kind: 'trace', event: { out: [{ a: 1 }, 2, []] } },
      { kind: 'trace', metadata: { m: 'x' }, event: { out: 'text' } },
      { event: { out: [] } },
      { event: { fail: true } },
      { event: { out: null } },
    ],
    0,
  );
  assert.equal(decodeOutput(program.runBatch(input)), [
    { kind: 'log', outcome: 'kept', events: [{ metadata: { seen: true }, event: { a: 1n } }] },
    {
      kind: 'trace',
      outcome: 'kept',
      events: [
        { metadata: { seen: true }, event: { a: 1n } },
        { metadata: { seen: true }, event: { message: 2n } },
        { metadata: { seen: true }, event: { message: [] } },
      ],
    },
    { kind: 'trace', outcome: 'kept', events: [{ metadata: { m: 'x', seen: true }, event: { message: 'text' } }] },
    { kind: 'log', outcome: 'kept', events: [] },
    { kind: 'log', outcome: 'aborted', message: 'aborted', metadata: { seen: true }, event: { fail: true } },
    { kind: 'log', outcome: 'kept', events: [{ metadata: { seen: true }, event: { message: null } }] },
  ]);
});

test("in Vector's log namespace (metadata with `vector`) a log's non-object value is the event; a trace's is wrapped", async () => {
  const { program, instance } = await compiled('. = .out');
  const vector = { vector: { source_type: 'stdin' } };
  const input = encodeBatch(
    [
      { metadata: vector, event: { out: 'text' } },
      { metadata: vector, event: { out: [1, { a: 1 }, null] } },
      { kind: 'trace', metadata: vector, event: { out: 'text' } },
    ],
    0,
  );
  assert.equal(decodeOutput(program.runBatch(input)), [
    { kind: 'log', outcome: 'kept', events: [{ metadata: vector, event: 'text' }] },
    {
      kind: 'log',
      outcome: 'kept',
      events: [
        { metadata: vector, event: 1n },
        { metadata: vector, event: { a: 1n } },
        { metadata: vector, event: null },
      ],
    },
    { kind: 'trace', outcome: 'kept', events: [{ metadata: vector, event: { message: 'text' } }] },
  ]);
  const chained = decodeBatch(instance.runChain(input).output).events;
  assert.equal(
    chained.map((record) => record.event),
    ['text', 1n, { a: 1n }, null, { message: 'text' }],
  );
});

test('the arena is freed after every batch', async () => {
  const { program, instance } = await compiled('.b = upcase(string!(.a))\n.c = [.b, .b]');
  const input = encodeBatch(
    Array.from({ length: 100 }, (_, i) => ({ event: { a: `event ${i}` } })),
    0,
  );
  const first = program.runBatch(input);
  for (let i = 0; i < 200; i++) assert.equal(program.runBatch(input), first);
  assert.is(instance.arenaUsed(), 0);
});

test('runNdjson prints results, objects or JSON events, and reports failing lines', async () => {
  const { program } = await compiled('.n = int!(.n) + 1\n.n');
  const input = Buffer.from('{"n":1}\n\n{"n":"x"}\nnot json\n{"n":41}\n');
  const errors = [
    { line: 2, message: 'function call error for "int" at (5:13): expected integer, got string' },
    { line: 3, message: 'invalid JSON: expected ident at column 2' },
  ];
  assert.equal(program.runNdjson(input, 0), { output: Buffer.from('2\n42\n'), errors, lines: 5 });
  assert.equal(program.runNdjson(input, NdjsonFlag.PRINT_OBJECT), {
    output: Buffer.from('{ "n": 2 }\n{ "n": 42 }\n'),
    errors,
    lines: 5,
  });
  assert.equal(program.runNdjson(input, NdjsonFlag.JSON), {
    output: Buffer.from('{"n":2}\n{"n":42}\n'),
    errors,
    lines: 5,
  });
  assert.is(
    program.runNdjson(Buffer.from('{}\n\n{}'), 0).lines,
    3,
    'blank lines and a last line without its newline count',
  );
});

test('runNdjson numbers failing lines across the pieces of a large input', async () => {
  const { program } = await compiled('.n = int!(.n)');
  const lines = Array.from({ length: Math.ceil((2.5 * NDJSON_CHUNK_BYTES) / 40) }, (_, i) =>
    i % 9973 === 5 ? '{"n":"bad"}' : JSON.stringify({ n: i, pad: 'x'.repeat(i % 20) }),
  );
  const { output, errors, lines: count } = program.runNdjson(Buffer.from(lines.join('\n') + '\n'), NdjsonFlag.JSON);
  assert.is(count, lines.length);
  const bad = lines.flatMap((line, i) => (line.includes('bad') ? [i] : []));
  assert.equal(
    errors.map((e) => e.line),
    bad,
  );
  const outLines = output.toString().split('\n');
  assert.is(outLines.length - 1, lines.length - bad.length);
  assert.is(outLines[outLines.length - 2], lines[lines.length - 1], 'keys in the same (sorted) order: same JSON');
});

test('the module records its source, options and JS functions, and runs in its time zone', async () => {
  const source = 'parse_regex!(.t, r\'^(?P<y>\\d+)\')\nparse_xml!(.t)\nparse_timestamp!(.t, "%Y-%m-%d %H:%M")';
  const { wasm } = await compiled(source, { timezone: 'Europe/Paris' });
  const info = readModuleInfo(wasm);
  assert.equal(
    [info.abi, info.compiler, info.source, info.options],
    [ABI_VERSION, '0.1.0', source, { timezone: 'Europe/Paris' }],
  );
  assert.equal([...info.jsFunctions].sort(), ['parse_timestamp', 'parse_xml'], 'parse_regex runs in wasm');

  const paris = await compiled('parse_timestamp!(.t, "%Y-%m-%d %H:%M")', { timezone: 'Europe/Paris' });
  const utc = await compiled('parse_timestamp!(.t, "%Y-%m-%d %H:%M")', {});
  assert.equal(paris.program.run({ t: '2020-01-01 12:00' }).result, new Timestamp(1577876400000000000n));
  assert.equal(utc.program.run({ t: '2020-01-01 12:00' }).result, new Timestamp(1577880000000000000n));
});

/** Runs `source` on `{}` in an instance of its module with `services` in place of the defaults. */
async function programWith(source: string, services: Partial<InstanceServices>, options: CompileOptions = {}) {
  const { module, info } = loadModule((await compileModule(source, options)).wasm);
  const instance = instantiate(module, {
    functions: await loadJsFunctions(info.jsFunctions),
    services: { ...defaultServices(info), ...services },
  });
  return new Program(instance);
}

async function runWith(source: string, services: Partial<InstanceServices>, options: CompileOptions = {}) {
  return (await programWith(source, services, options)).run({}).result;
}

test("defaultServices: the module's time zone, else UTC; the system clock; stderr", () => {
  const services = defaultServices({ options: { timezone: 'Asia/Tokyo' } });
  assert.is(services.timezone, 'Asia/Tokyo');
  assert.is(defaultServices({ options: {} }).timezone, 'UTC');
  const now = BigInt(Date.now()) * 1_000_000n;
  assert.ok(services.now() > now - 60_000_000_000n && services.now() < now + 60_000_000_000n);
});

test('an instance reads the time from its clock service', async () => {
  assert.equal(
    await runWith('now()', { now: () => 1_700_000_000_123_000_000n }),
    new Timestamp(1_700_000_000_123_000_000n),
  );
});

test("an instance's time zone service overrides the module's compile option", async () => {
  const source = 'parse_timestamp!("2020-01-01 12:00", "%Y-%m-%d %H:%M")';
  assert.equal(await runWith(source, {}, { timezone: 'Europe/Paris' }), new Timestamp(1577876400000000000n));
  assert.equal(
    await runWith(source, { timezone: 'UTC' }, { timezone: 'Europe/Paris' }),
    new Timestamp(1577880000000000000n),
  );
  const local = 'to_unix_timestamp(parse_timestamp!("2020-01-01 12:00", "%Y-%m-%d %H:%M"))';
  assert.is(await runWith(local, { timezone: 'America/New_York' }), 1577898000n, "the stdlib's zone rules too");
});

test("log() writes to the instance's log service with the call's byte offset in the program", async () => {
  const lines: Array<[LogLevel, string, number]> = [];
  const source = '.a = "é"\nlog("hello", level: "warn")\nlog(42)';
  await runWith(source, { log: (level, message, position) => lines.push([level, message, position]) });
  assert.equal(lines, [
    ['warn', 'hello', Buffer.byteLength('.a = "é"\n')],
    ['info', '42', Buffer.byteLength(source) - 'log(42)'.length],
  ]);
});

test('log() writes at most once per rate_limit_secs per call site, whatever the message', async () => {
  const lines: Array<[string, number]> = [];
  let now = 1_700_000_000_000_000_000n;
  const source = 'log("bad id " + to_string!(.id))\nlog("seen " + to_string!(.id), rate_limit_secs: 5)';
  const second = source.indexOf('log("seen');
  const program = await programWith(source, {
    now: () => now,
    log: (_level, message, position) => lines.push([message, position]),
  });
  for (let id = 1; id <= 3; id++) program.run({ id });
  assert.equal(lines.splice(0), [
    ['bad id 1', 0],
    ['seen 1', second],
  ]);
  now += 1_000_000_000n; // the first site's window (the default, 1 s) has passed, not the second's
  program.run({ id: 4 });
  assert.equal(lines.splice(0), [['bad id 4', 0]]);
  now += 4_000_000_000n;
  program.run({ id: 5 });
  assert.equal(lines.splice(0), [
    ['bad id 5', 0],
    ['seen 5', second],
  ]);
});

test('log() with rate_limit_secs: 0 writes every call', async () => {
  const lines: string[] = [];
  const program = await programWith('log(.n, rate_limit_secs: 0)', {
    now: () => 1_700_000_000_000_000_000n,
    log: (_level, message) => lines.push(message),
  });
  for (let n = 1; n <= 3; n++) program.run({ n });
  assert.equal(lines, ['1', '2', '3']);
});

test.run();
