import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../support/stdlib.js';
import {
  BatchFlag,
  ChainFlag,
  NdjsonFlag,
  decodeBatch,
  decodeFailures,
  decodeOutput,
  encodeBatch,
  type ChainFailure,
  type InputEvent,
  type OutputRecord,
} from '../../abi/batch.js';
import { BatchReader } from '../../runtime/batch-io.js';
import type { RemapValue } from '../../abi/values.js';

const RESULTS = BatchFlag.RESULTS;
const RAW = BatchFlag.RAW;
const ERROR = 1;
const ABORTED = 2;

/** A stdlib whose `svc.program` is `body`, which works on the cells through the exports. */
function withProgram(body: (p: ProgramContext) => number): Stdlib {
  const s = new Stdlib();
  const ctx = new ProgramContext(s);
  s.program = () => body(ctx);
  return s;
}

class ProgramContext {
  constructor(readonly s: Stdlib) {}
  private get x() {
    return this.s.exports;
  }
  private root(cell: number): number {
    return new DataView(this.x.memory.buffer).getUint32(cell, true);
  }
  /** `.path = value` (no path: `. = value`). */
  set(path: Array<string | number>, value: unknown): void {
    this.x.path_set!(this.x.event_cell!(), this.s.path(...path), this.s.put(value));
  }
  /** `%path = value`. */
  setMeta(path: string[], value: unknown): void {
    this.x.path_set!(this.x.meta_cell!(), this.s.path(...path), this.s.put(value));
  }
  /** The value at `.path` (its address). */
  get(...path: Array<string | number>): number {
    return this.x.path_get!(this.root(this.x.event_cell!()), this.s.path(...path));
  }
  /** `%` as a JS value. */
  meta(): RemapValue {
    return this.s.get(this.root(this.x.meta_cell!()));
  }
  /** Stops the event with `message`; returns 0 as the program does. */
  stop(outcome: number, message: string): number {
    this.x.fail_value!(this.s.put(message));
    this.x.set_outcome!(outcome);
    return 0;
  }
}

function runBatch(s: Stdlib, events: InputEvent[], flags = 0): OutputRecord[] {
  const x = s.exports;
  const input = encodeBatch(events, flags);
  const out = x.run_batch!(s.write(input), input.length);
  return decodeOutput(s.read(out, x.output_len!()));
}

function runNdjson(s: Stdlib, text: string, flags = 0): { output: string; errors: Array<[number, string]> } {
  const x = s.exports;
  const input = Buffer.from(text);
  const out = x.run_ndjson!(s.write(input), input.length, flags);
  const output = Buffer.from(s.read(out, x.output_len!())).toString('utf8');
  const errorBytes = Buffer.from(s.read(x.errors_ptr!(), x.errors_len!()));
  const errors: Array<[number, string]> = [];
  for (let at = 0; at < errorBytes.length; ) {
    const length = errorBytes.readUInt32LE(at + 4);
    errors.push([errorBytes.readUInt32LE(at), errorBytes.subarray(at + 8, at + 8 + length).toString('utf8')]);
    at += 8 + length;
  }
  return { output, errors };
}

const kept = (event: RemapValue, metadata: RemapValue = {}) => ({ metadata, event });

// ---- run_batch -----------------------------------------------------------------------------------------

test('run_batch: the program changes events in place; kinds and metadata pass through', () => {
  const s = withProgram((p) => {
    p.set(['seen'], true);
    p.setMeta(['tag'], 'x');
    return p.get('n');
  });
  assert.equal(
    runBatch(s, [
      { event: { n: 1n } },
      { kind: 'trace', metadata: { m: 1n }, event: { n: 2n, a: [1n, { b: 'é' }] } },
      { kind: 'trace', event: {} },
    ]),
    [
      { kind: 'log', outcome: 'kept', events: [kept({ n: 1n, seen: true }, { tag: 'x' })] },
      {
        kind: 'trace',
        outcome: 'kept',
        events: [kept({ n: 2n, a: [1n, { b: 'é' }], seen: true }, { m: 1n, tag: 'x' })],
      },
      { kind: 'trace', outcome: 'kept', events: [kept({ seen: true }, { tag: 'x' })] },
    ],
  );
});

test('run_batch: RESULTS appends the result to kept records only', () => {
  const s = withProgram((p) => {
    const n = p.get('n');
    return p.s.get(n) === null ? p.stop(ERROR, 'no n') : n;
  });
  assert.equal(runBatch(s, [{ event: { n: 5n } }, { event: {} }, { event: { n: [true] } }], RESULTS), [
    { kind: 'log', outcome: 'kept', events: [kept({ n: 5n })], result: 5n },
    { kind: 'log', outcome: 'error', message: 'no n', metadata: {}, event: {} },
    { kind: 'log', outcome: 'kept', events: [kept({ n: [true] })], result: [true] },
  ]);
});

test('run_batch: emission rules: objects, arrays of events, anything else wrapped in { message }', () => {
  const targets: unknown[] = [[{ a: 1n }, 2n, 'x', null, [3n]], [], 5n, 'text', null, { o: {} }];
  let next = 0;
  const s = withProgram((p) => {
    p.set([], targets[next++]);
    return p.s.put(null);
  });
  const meta = { m: true };
  const out = runBatch(
    s,
    targets.map(() => ({ metadata: meta, event: { original: true } })),
  );
  assert.equal(
    out.map((r) => r.outcome === 'kept' && r.events),
    [
      [
        kept({ a: 1n }, meta),
        kept({ message: 2n }, meta),
        kept({ message: 'x' }, meta),
        kept({ message: null }, meta),
        kept({ message: [3n] }, meta),
      ],
      [],
      [kept({ message: 5n }, meta)],
      [kept({ message: 'text' }, meta)],
      [kept({ message: null }, meta)],
      [kept({ o: {} }, meta)],
    ],
  );
});

test('run_batch: RAW keeps the target as the program left it, one event per record', () => {
  const targets: RemapValue[] = [[1n, { a: 2n }], 'text', []];
  let next = 0;
  const s = withProgram((p) => {
    p.set([], targets[next++]);
    return p.s.put(true);
  });
  assert.equal(
    runBatch(
      s,
      targets.map(() => ({ event: {} })),
      RAW | RESULTS,
    ),
    targets.map((t) => ({ kind: 'log', outcome: 'kept', events: [kept(t)], result: true })),
  );
});

test('run_batch: errors and aborts report the message and the event as it was when the program stopped', () => {
  const s = withProgram((p) => {
    p.set(['before'], 1n);
    const mode = p.s.get(p.get('mode'));
    if (mode === 'error') return p.stop(ERROR, 'function call error for "f" at (0:3): bad');
    if (mode === 'abort') return p.stop(ABORTED, 'aborted');
    p.set(['after'], 2n);
    return p.get('after');
  });
  assert.equal(
    runBatch(s, [
      { event: { mode: 'error' }, metadata: { k: 1n } },
      { event: { mode: 'ok' } },
      { event: { mode: 'abort' }, kind: 'trace' },
      { event: { mode: 'ok' } },
    ]),
    [
      {
        kind: 'log',
        outcome: 'error',
        message: 'function call error for "f" at (0:3): bad',
        metadata: { k: 1n },
        event: { mode: 'error', before: 1n },
      },
      { kind: 'log', outcome: 'kept', events: [kept({ mode: 'ok', before: 1n, after: 2n })] },
      { kind: 'trace', outcome: 'aborted', message: 'aborted', metadata: {}, event: { mode: 'abort', before: 1n } },
      { kind: 'log', outcome: 'kept', events: [kept({ mode: 'ok', before: 1n, after: 2n })] },
    ],
  );
});

test('run_batch: an empty batch gives an empty output batch', () => {
  const s = withProgram(() => {
    throw new Error('no event to run');
  });
  assert.equal(runBatch(s, [], RESULTS), []);
});

test('run_batch: outputs larger than the input grow the buffer', () => {
  const s = withProgram((p) => {
    p.set(['padding'], 'y'.repeat(300));
    return p.s.put(null);
  });
  const events = Array.from({ length: 200 }, (_, i) => ({ i: BigInt(i) }));
  const out = runBatch(
    s,
    events.map((event) => ({ event })),
  );
  assert.equal(
    out,
    events.map((e) => ({ kind: 'log', outcome: 'kept', events: [kept({ ...e, padding: 'y'.repeat(300) })] })),
  );
});

test('run_batch: memory stays flat over the same batch 1,000 times with resets', () => {
  const s = withProgram((p) => {
    p.set(['tags', -1], 'new');
    p.set(['copy'], p.s.get(p.get('a')));
    return p.get('tags');
  });
  const x = s.exports;
  const input = encodeBatch(
    Array.from({ length: 10 }, () => ({ event: { a: { b: [1n, 'x'.repeat(100)] }, tags: ['t'] } })),
    RESULTS,
  );
  const used = new Set<number>();
  const sizes = new Set<number>();
  let first: Uint8Array | undefined;
  for (let i = 0; i < 1000; i++) {
    x.reset!();
    const out = x.run_batch!(s.write(input), input.length);
    const bytes = s.read(out, x.output_len!());
    first ??= bytes;
    if (i === 999) assert.equal(bytes, first);
    used.add(x.arena_used!());
    if (i > 0) sizes.add(x.memory.buffer.byteLength);
  }
  assert.is(used.size, 1, 'arena_used');
  assert.is(sizes.size, 1, 'memory size');
});

// ---- run_chain and run_condition -----------------------------------------------------------------------

function failures(s: Stdlib): ChainFailure[] {
  return decodeFailures(s.read(s.exports.failures_ptr!(), s.exports.failures_len!()));
}

function runChain(s: Stdlib, input: Uint8Array, flags = 0): { output: Uint8Array; failures: ChainFailure[] } {
  const out = s.exports.run_chain!(s.write(input), input.length, flags);
  return { output: s.read(out, s.exports.output_len!()), failures: failures(s) };
}

function runCondition(s: Stdlib, input: Uint8Array): { bits: number[]; failures: ChainFailure[] } {
  const out = s.exports.run_condition!(s.write(input), input.length);
  return { bits: [...s.read(out, s.exports.output_len!())], failures: failures(s) };
}

/** A program that fails by `.mode` ("error", "abort"), else sets `.seen` and `%m` and returns `.mode`. */
const byMode = () =>
  withProgram((p) => {
    const mode = p.s.get(p.get('mode'));
    p.set(['changed'], true);
    if (mode === 'error') return p.stop(ERROR, 'function call error for "f" at (0:3): bad');
    if (mode === 'abort') return p.stop(ABORTED, 'aborted');
    p.setMeta(['m'], 1n);
    return p.get('mode');
  });

test('run_chain: the output is an input batch of the emitted events, with their kinds and metadata', () => {
  const targets: unknown[] = [[{ a: 1n }, 2n, [3n]], [], 'text', { o: {} }];
  let next = 0;
  const s = withProgram((p) => {
    p.set([], targets[next++]);
    p.setMeta(['i'], BigInt(next));
    return p.s.put(null);
  });
  const kinds = ['trace', 'log', 'trace', 'log'] as const;
  const input = encodeBatch(
    targets.map((_, i) => ({ kind: kinds[i], metadata: { k: 'v' }, event: {} })),
    RESULTS,
  );
  const { output, failures } = runChain(s, input);
  assert.equal(decodeBatch(output), {
    flags: RESULTS,
    events: [
      { kind: 'trace', metadata: { i: 1n, k: 'v' }, event: { a: 1n } },
      { kind: 'trace', metadata: { i: 1n, k: 'v' }, event: { message: 2n } },
      { kind: 'trace', metadata: { i: 1n, k: 'v' }, event: { message: [3n] } },
      { kind: 'trace', metadata: { i: 3n, k: 'v' }, event: { message: 'text' } },
      { kind: 'log', metadata: { i: 4n, k: 'v' }, event: { o: {} } },
    ],
  });
  assert.equal(failures, []);
});

test('run_chain: errors and aborts emit nothing and hand back the record as it arrived', () => {
  const events: InputEvent[] = [
    { event: { mode: 'error' }, metadata: { k: 1n } },
    { event: { mode: 'ok' } },
    { event: { mode: 'abort', pad: 'é'.repeat(40) }, kind: 'trace' },
  ];
  const input = new Uint8Array(encodeBatch(events, 0)); // a plain Uint8Array, as the records read out of wasm
  const records = [...new BatchReader(input)].map((r) => r.record);
  const { output, failures } = runChain(byMode(), input);
  assert.equal(decodeBatch(output).events, [
    { kind: 'log', metadata: { m: 1n }, event: { mode: 'ok', changed: true } },
  ]);
  assert.equal(failures, [
    { index: 0, outcome: 'error', message: 'function call error for "f" at (0:3): bad', record: records[0] },
    { index: 2, outcome: 'aborted', message: 'aborted', record: records[2] },
  ]);
});

test('run_chain: KEEP_ON_ERROR and KEEP_ON_ABORT forward the original record in its place', () => {
  const input = new Uint8Array(
    encodeBatch(
      ['abort', 'ok', 'error', 'ok', 'abort'].map((mode) => ({ event: { mode } })),
      0,
    ),
  );
  const records = [...new BatchReader(input)].map((r) => r.record);
  const ok = { kind: 'log', metadata: { m: 1n }, event: { mode: 'ok', changed: true } };
  const original = (mode: string) => ({ kind: 'log', metadata: {}, event: { mode } });
  const events = (flags: number) => decodeBatch(runChain(byMode(), input, flags).output).events;
  assert.equal(events(ChainFlag.KEEP_ON_ERROR), [ok, original('error'), ok]);
  assert.equal(events(ChainFlag.KEEP_ON_ABORT), [original('abort'), ok, ok, original('abort')]);
  const both = runChain(byMode(), input, ChainFlag.KEEP_ON_ERROR | ChainFlag.KEEP_ON_ABORT);
  assert.equal(decodeBatch(both.output).events, [original('abort'), ok, original('error'), ok, original('abort')]);
  const kept = [...new BatchReader(both.output)].map((r) => r.record);
  assert.equal([kept[0], kept[2], kept[4]], [records[0], records[2], records[4]]);
  assert.equal(
    both.failures.map((f) => f.index),
    [0, 2, 4],
    'kept records are still reported',
  );
});

test('run_chain: an empty batch gives an empty batch', () => {
  const { output, failures } = runChain(byMode(), encodeBatch([], 0));
  assert.equal(decodeBatch(output), { flags: 0, events: [] });
  assert.equal(failures, []);
});

test('run_condition: a bit per record, set for `true` only; errors and aborts reported without the record', () => {
  const results: unknown[] = [true, false, 1n, 'true', null, 'error', true, 'abort', true, true, {}];
  const s = withProgram((p) => {
    const mode = p.s.get(p.get('mode'));
    if (mode === 'error') return p.stop(ERROR, 'bad');
    if (mode === 'abort') return p.stop(ABORTED, 'aborted');
    return p.get('mode');
  });
  const { bits, failures } = runCondition(
    s,
    encodeBatch(
      results.map((mode) => ({ event: { mode } })),
      0,
    ),
  );
  assert.equal(bits, [0b0100_0001, 0b0000_0011]);
  assert.equal(failures, [
    { index: 5, outcome: 'error', message: 'bad' },
    { index: 7, outcome: 'aborted', message: 'aborted' },
  ]);
});

test('run_condition: bitmaps of 0, 8 and 9 records; stale arena bytes never leak into them', () => {
  const s = withProgram((p) => p.get('mode'));
  const batch = (n: number) =>
    encodeBatch(
      Array.from({ length: n }, () => ({ event: { mode: true } })),
      0,
    );
  s.exports.reset!();
  assert.equal(runCondition(s, batch(0)).bits, []);
  s.exports.reset!();
  assert.equal(runCondition(s, batch(8)).bits, [0xff]);
  s.exports.reset!();
  runCondition(
    s,
    encodeBatch(
      Array.from({ length: 9 }, () => ({ event: { mode: 'x'.repeat(9) } })),
      0,
    ),
  );
  s.exports.reset!();
  assert.equal(runCondition(s, batch(9)).bits, [0xff, 0x01]);
});

test('run_chain: memory stays flat over the same batch 1,000 times with resets', () => {
  const s = byMode();
  const input = encodeBatch(
    ['ok', 'error', 'abort', 'ok'].map((mode) => ({ event: { mode, pad: 'p'.repeat(80) } })),
    0,
  );
  const used = new Set<number>();
  let first: Uint8Array | undefined;
  for (let i = 0; i < 1000; i++) {
    s.exports.reset!();
    const { output } = runChain(s, input, ChainFlag.KEEP_ON_ABORT);
    first ??= output;
    if (i === 999) assert.equal(output, first);
    used.add(s.exports.arena_used!());
  }
  assert.is(used.size, 1, 'arena_used');
});

// ---- run_ndjson ----------------------------------------------------------------------------------------

const readN = () =>
  withProgram((p) => {
    p.set(['seen'], true);
    return p.get('n');
  });

test('run_ndjson: one display line per event, blank lines skipped but counted', () => {
  const text = '{"n":1}\n\n  \n{"n":"x\\"y"}\r\n{"n":[1,2.5,{"b":null}]}\n{"m":1}';
  assert.equal(runNdjson(readN(), text), {
    output: '1\n"x\\"y"\n[1, 2.5, { "b": null }]\nnull\n',
    errors: [],
  });
});

test('run_ndjson: PRINT_OBJECT prints `.`; JSON prints the emitted events', () => {
  const text = '{"n":1}\n{"n":"é","a":[true]}\n';
  assert.equal(
    runNdjson(readN(), text, NdjsonFlag.PRINT_OBJECT).output,
    '{ "n": 1, "seen": true }\n{ "a": [true], "n": "é", "seen": true }\n',
  );
  assert.equal(
    runNdjson(readN(), text, NdjsonFlag.JSON).output,
    '{"n":1,"seen":true}\n{"a":[true],"n":"é","seen":true}\n',
  );
});

test('run_ndjson: JSON follows the emission rules', () => {
  const targets: unknown[] = [[{ a: 1n }, 2n, 'x'], [], 5n];
  let next = 0;
  const s = withProgram((p) => {
    p.set([], targets[next++]);
    return p.s.put(null);
  });
  assert.equal(
    runNdjson(s, '{}\n{}\n{}\n', NdjsonFlag.JSON).output,
    '{"a":1}\n{"message":2}\n{"message":"x"}\n{"message":5}\n',
  );
});

test('run_ndjson: invalid JSON, errors and aborts go to the error buffer with their line index', () => {
  const s = withProgram((p) => {
    const mode = p.s.get(p.get('mode'));
    if (mode === 'error') return p.stop(ERROR, 'function call error for "f" at (0:3): bad');
    if (mode === 'abort') return p.stop(ABORTED, 'stop here');
    return p.get('mode');
  });
  const text = '{"mode":"ok"}\nnot json\n\n{"mode":"error"}\n{"mode":"abort"}\n{"mode":1}\n{"mode":\n';
  const { output, errors } = runNdjson(s, text);
  assert.is(output, '"ok"\n1\n');
  assert.equal(
    errors.map(([line]) => line),
    [1, 3, 4, 6],
  );
  assert.equal(
    errors.slice(1, 3).map(([, message]) => message),
    ['function call error for "f" at (0:3): bad', 'stop here'],
  );
  assert.match(errors[0]![1], /^invalid JSON: expected ident at column 2$/);
  assert.match(errors[3]![1], /^invalid JSON: EOF while parsing a value at column 8$/);
});

test('run_ndjson: every event starts with empty metadata and values straight from its line', () => {
  const seen: RemapValue[] = [];
  const s = withProgram((p) => {
    seen.push(p.meta());
    p.setMeta(['n'], p.s.get(p.get('n')));
    return p.s.put(null);
  });
  runNdjson(s, '{"n":1}\n{"n":2}\n');
  assert.equal(seen, [{}, {}]);
});

test('run_ndjson: empty input gives empty output', () => {
  assert.equal(runNdjson(readN(), ''), { output: '', errors: [] });
  assert.equal(runNdjson(readN(), '\n\n'), { output: '', errors: [] });
});

test('run_ndjson: long lines and many lines (line search across word boundaries)', () => {
  const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ n: 'z'.repeat(i % 37) }));
  const { output, errors } = runNdjson(readN(), lines.join('\n'));
  assert.equal(errors, []);
  assert.is(output, lines.map((_, i) => `"${'z'.repeat(i % 37)}"\n`).join(''));
});

test('run_ndjson: memory stays flat over the same input 1,000 times with resets', () => {
  const s = readN();
  const x = s.exports;
  const input = Buffer.from(
    Array.from({ length: 10 }, (_, i) => `{"n":${i},"s":"${'x'.repeat(50)}"}`).join('\n') + '\nbad\n',
  );
  const used = new Set<number>();
  const sizes = new Set<number>();
  for (let i = 0; i < 1000; i++) {
    x.reset!();
    x.run_ndjson!(s.write(input), input.length, NdjsonFlag.JSON);
    used.add(x.arena_used!());
    if (i > 0) sizes.add(x.memory.buffer.byteLength);
  }
  assert.is(used.size, 1, 'arena_used');
  assert.is(sizes.size, 1, 'memory size');
});

test.run();
