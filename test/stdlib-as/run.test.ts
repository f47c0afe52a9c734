import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Stdlib } from '../support/stdlib.js';
import { ByteReader, ByteWriter, encodeValue } from '../../runtime/codec.js';
import type { RemapValue } from '../../runtime/values.js';

const RESULTS = 1;
const RAW = 2;
const KEPT = 0;
const ERROR = 1;
const ABORTED = 2;

interface InputRecord {
  kind?: number;
  meta?: unknown;
  event: unknown;
}

/** An input batch (docs/abi.md §2). */
function batch(records: InputRecord[], flags = 0): Uint8Array {
  const w = new ByteWriter();
  w.raw(Buffer.from('SVCB'));
  w.u16(1);
  w.u16(flags);
  w.u32(records.length);
  for (const r of records) {
    const lengthAt = w.reserve(4);
    w.u8(r.kind ?? 0);
    w.u8(0);
    w.u16(0);
    encodeValue(w, r.meta ?? {});
    encodeValue(w, r.event);
    w.view.setUint32(lengthAt, w.length - lengthAt - 4, true);
  }
  return w.finish().slice();
}

interface OutputRecord {
  kind: number;
  outcome: number;
  events?: Array<[RemapValue, RemapValue]>;
  result?: RemapValue;
  message?: string;
  meta?: RemapValue;
  event?: RemapValue;
}

/** Reads an output batch, checking the header and that each record's length matches what it holds. */
function readOutput(bytes: Uint8Array, flags: number, count: number): OutputRecord[] {
  const r = new ByteReader(bytes);
  assert.is(Buffer.from(r.take(4)).toString(), 'SVCB');
  assert.is(r.u16(), 1);
  assert.is(r.u16(), flags);
  assert.is(r.u32(), count);
  const records: OutputRecord[] = [];
  for (let i = 0; i < count; i++) {
    const length = r.u32();
    const end = r.at + length;
    const record: OutputRecord = { kind: r.u8(), outcome: r.u8() };
    assert.is(r.u16(), 0);
    if (record.outcome === KEPT) {
      const n = r.u32();
      record.events = [];
      for (let k = 0; k < n; k++) record.events.push([r.value(), r.value()]);
      if (flags & RESULTS) record.result = r.value();
    } else {
      record.message = Buffer.from(r.sized()).toString('utf8');
      record.meta = r.value();
      record.event = r.value();
    }
    assert.is(r.at, end, `record ${i} length`);
    records.push(record);
  }
  assert.is(r.at, bytes.length, 'output length');
  return records;
}

/** A stdlib whose program is `body`, given helpers that work on the cells through the exports. */
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
  /** The value at `.path` (address). */
  get(...path: Array<string | number>): number {
    return this.x.path_get!(this.root(this.x.event_cell!()), this.s.path(...path));
  }
  event(): RemapValue {
    return this.s.get(this.root(this.x.event_cell!()));
  }
  /** Stops the event with `message`; returns 0 as the program does. */
  stop(outcome: number, message: string): number {
    this.x.fail_value!(this.s.put(message));
    this.x.set_outcome!(outcome);
    return 0;
  }
}

function run(s: Stdlib, input: Uint8Array, flags: number, count: number): OutputRecord[] {
  const x = s.exports;
  const out = x.run_batch!(s.write(input), input.length);
  return readOutput(s.read(out, x.output_len!()), flags, count);
}

test('kept events: the program changes them in place, kinds and metadata pass through', () => {
  const s = withProgram((p) => {
    p.set(['seen'], true);
    p.setMeta(['tag'], 'x');
    return p.get('n');
  });
  const input = batch([
    { event: { n: 1n } },
    { kind: 1, meta: { m: 1n }, event: { n: 2n, a: [1n, { b: 'é' }] } },
    { kind: 2, event: {} },
  ]);
  assert.equal(run(s, input, 0, 3), [
    { kind: 0, outcome: KEPT, events: [[{ tag: 'x' }, { n: 1n, seen: true }]] },
    { kind: 1, outcome: KEPT, events: [[{ m: 1n, tag: 'x' }, { n: 2n, a: [1n, { b: 'é' }], seen: true }]] },
    { kind: 2, outcome: KEPT, events: [[{ tag: 'x' }, { seen: true }]] },
  ]);
});

test('RESULTS appends the result to kept records only', () => {
  const s = withProgram((p) => {
    const n = p.get('n');
    return p.s.get(n) === null ? p.stop(ERROR, 'no n') : n;
  });
  const input = batch([{ event: { n: 5n } }, { event: {} }, { event: { n: [true] } }], RESULTS);
  assert.equal(run(s, input, RESULTS, 3), [
    { kind: 0, outcome: KEPT, events: [[{}, { n: 5n }]], result: 5n },
    { kind: 0, outcome: ERROR, message: 'no n', meta: {}, event: {} },
    { kind: 0, outcome: KEPT, events: [[{}, { n: [true] }]], result: [true] },
  ]);
});

test('emission rules: objects, arrays of events, anything else wrapped in { message }', () => {
  const targets: unknown[] = [[{ a: 1n }, 2n, 'x', null, [3n]], [], 5n, 'text', null, { o: {} }];
  let next = 0;
  const s = withProgram((p) => {
    p.set([], targets[next++]);
    return p.s.put(null);
  });
  const input = batch(targets.map(() => ({ meta: { m: true }, event: { original: true } })));
  const meta = { m: true };
  assert.equal(run(s, input, 0, targets.length).map((r) => r.events), [
    [[meta, { a: 1n }], [meta, { message: 2n }], [meta, { message: 'x' }], [meta, { message: null }], [meta, { message: [3n] }]],
    [],
    [[meta, { message: 5n }]],
    [[meta, { message: 'text' }]],
    [[meta, { message: null }]],
    [[meta, { o: {} }]],
  ]);
});

test('RAW keeps the target as the program left it, one event per record', () => {
  const targets: unknown[] = [[1n, { a: 2n }], 'text', []];
  let next = 0;
  const s = withProgram((p) => {
    p.set([], targets[next++]);
    return p.s.put(true);
  });
  const input = batch(targets.map(() => ({ event: {} })), RAW | RESULTS);
  assert.equal(run(s, input, RAW | RESULTS, 3), targets.map((t) => ({ kind: 0, outcome: KEPT, events: [[{}, t]], result: true })));
});

test('errors and aborts report the message and the event as it was when the program stopped', () => {
  const s = withProgram((p) => {
    p.set(['before'], 1n);
    const mode = p.s.get(p.get('mode'));
    if (mode === 'error') return p.stop(ERROR, 'function call error for "f" at (0:3): bad');
    if (mode === 'abort') return p.stop(ABORTED, 'aborted');
    p.set(['after'], 2n);
    return p.get('after');
  });
  const input = batch([
    { event: { mode: 'error' }, meta: { k: 1n } },
    { event: { mode: 'ok' } },
    { event: { mode: 'abort' }, kind: 1 },
    { event: { mode: 'ok' } },
  ]);
  assert.equal(run(s, input, 0, 4), [
    { kind: 0, outcome: ERROR, message: 'function call error for "f" at (0:3): bad', meta: { k: 1n }, event: { mode: 'error', before: 1n } },
    { kind: 0, outcome: KEPT, events: [[{}, { mode: 'ok', before: 1n, after: 2n }]] },
    { kind: 1, outcome: ABORTED, message: 'aborted', meta: {}, event: { mode: 'abort', before: 1n } },
    { kind: 0, outcome: KEPT, events: [[{}, { mode: 'ok', before: 1n, after: 2n }]] },
  ]);
});

test('an empty batch gives an empty output batch', () => {
  const s = withProgram(() => {
    throw new Error('no event to run');
  });
  assert.equal(run(s, batch([], RESULTS), RESULTS, 0), []);
});

test('a large batch: outputs bigger than the input grow the buffer', () => {
  const s = withProgram((p) => {
    p.set(['padding'], 'y'.repeat(300));
    return p.s.put(null);
  });
  const records = Array.from({ length: 200 }, (_, i) => ({ event: { i: BigInt(i) } }));
  const out = run(s, batch(records), 0, 200);
  assert.equal(out.map((r) => r.events![0]![1]), records.map((r) => ({ ...r.event, padding: 'y'.repeat(300) })));
});

test('memory stays flat: the same batch 1,000 times with resets', () => {
  const s = withProgram((p) => {
    p.set(['tags', -1], 'new');
    p.set(['copy'], p.s.get(p.get('a')));
    return p.get('tags');
  });
  const x = s.exports;
  const input = batch(Array.from({ length: 10 }, () => ({ event: { a: { b: [1n, 'x'.repeat(100)] }, tags: ['t'] } })), RESULTS);
  const used: number[] = [];
  const sizes: number[] = [];
  let first: Uint8Array | undefined;
  for (let i = 0; i < 1000; i++) {
    x.reset!();
    const out = x.run_batch!(s.write(input), input.length);
    const bytes = s.read(out, x.output_len!());
    first ??= bytes;
    if (i === 999) assert.equal(bytes, first);
    used.push(x.arena_used!());
    sizes.push(x.memory.buffer.byteLength);
  }
  assert.is(new Set(used).size, 1, 'arena_used');
  assert.is(new Set(sizes.slice(1)).size, 1, 'memory size');
});

test.run();
