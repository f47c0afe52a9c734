import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BatchReader,
  BatchWriter,
  splitByBitmap,
  withField,
  withoutField,
  writeEdited,
  type FieldEdit,
} from '../../runtime/batch-io.js';
import { BatchFlag, decodeBatch, encodeBatch, type InputEvent } from '../../abi/batch.js';
import { ByteWriter, decode, encode, IntegralFloat } from '../../abi/codec.js';
import { Timestamp } from '../../abi/values.js';

const events: InputEvent[] = [
  { event: { message: 'a', n: 1n }, metadata: { m: 'x' } },
  { kind: 'metric', event: { counter: { value: 2.5 } } },
  { kind: 'trace', event: [1n, 'two'] },
];

/** Plain Uint8Array views compare equal with uvu whether they come from a Buffer or not. */
const plain = (bytes: Uint8Array) => new Uint8Array(bytes);

test('BatchReader: count, flags, and each record as views of its parts', () => {
  const batch = encodeBatch(events, BatchFlag.RESULTS);
  const reader = new BatchReader(batch);
  assert.is(reader.count, 3);
  assert.is(reader.flags, BatchFlag.RESULTS);
  const views = [...reader];
  assert.equal(
    views.map((v) => [v.index, v.kind]),
    [
      [0, 'log'],
      [1, 'metric'],
      [2, 'trace'],
    ],
  );
  assert.equal(
    views.map((v) => plain(v.metadata)),
    events.map((e) => plain(encode(e.metadata ?? {}))),
  );
  assert.equal(
    views.map((v) => plain(v.event)),
    events.map((e) => plain(encode(e.event))),
  );
  assert.equal(plain(Buffer.concat(views.map((v) => v.record))), plain(batch.subarray(12)), 'records tile the batch');
  assert.ok(
    views.every((v) => v.record.buffer === batch.buffer),
    'views, not copies',
  );
  assert.equal(
    views.map((v) => reader.decodeRecord(v)),
    decodeBatch(batch).events,
  );
  assert.equal(reader.decodeAll(), decodeBatch(batch).events);
});

test('BatchReader.cursor: each record in place, where its parts are in the batch', () => {
  const batch = encodeBatch(events, 0);
  const reader = new BatchReader(batch);
  const views = [...reader];
  const cursor = reader.cursor();
  for (const view of views) {
    assert.ok(cursor.next());
    assert.equal([cursor.index, cursor.kind], [view.index, view.kind]);
    assert.equal(plain(batch.subarray(cursor.start, cursor.end)), plain(view.record));
    assert.equal(plain(batch.subarray(cursor.metadataAt, cursor.eventAt)), plain(view.metadata));
    assert.equal(plain(cursor.event()), plain(view.event));
    assert.equal(reader.readPath(batch, ['m'], cursor.metadataAt), view.index === 0 ? 'x' : undefined);
  }
  assert.not.ok(cursor.next());
  const longer = Buffer.concat([batch, Buffer.from([0])]);
  const walk = new BatchReader(longer).cursor();
  assert.throws(() => {
    while (walk.next());
  }, /1 bytes after its last record/);
});

test('BatchReader: a malformed batch is refused with the reason', () => {
  assert.throws(() => new BatchReader(new Uint8Array(4)), /not a remap batch/);
  const batch = encodeBatch(events, 0);
  assert.throws(() => [...new BatchReader(batch.subarray(0, batch.length - 3))], /batch record 2 is truncated/);
  assert.throws(() => [...new BatchReader(Buffer.concat([batch, Buffer.from([0])]))], /1 bytes after its last record/);
});

const nested = {
  a: { b: [10n, { c: 'deep' }, [true, null]], é: 1.5 },
  list: [{ k: 'first' }, { k: 'last' }],
  t: new Timestamp(1_000_000_000n),
  z: 'end',
};

test('BatchReader.readPath decodes just the leaf of nested objects and arrays', () => {
  const reader = new BatchReader(encodeBatch([], 0));
  const value = encode(nested);
  const cases: Array<[Array<string | number>, unknown]> = [
    [[], nested],
    [['z'], 'end'],
    [['a', 'é'], 1.5],
    [['a', 'b', 0], 10n],
    [['a', 'b', 1, 'c'], 'deep'],
    [['a', 'b', 2, 1], null],
    [['a', 'b', -1, 0], true],
    [['list', -2, 'k'], 'first'],
    [['list', 1], { k: 'last' }],
    [['t'], new Timestamp(1_000_000_000n)],
  ];
  for (const [path, expected] of cases) assert.equal(reader.readPath(value, path), expected, JSON.stringify(path));
});

test('BatchReader.readPath gives undefined where the path leads nowhere', () => {
  const reader = new BatchReader(encodeBatch([], 0));
  const value = encode(nested);
  const missing: Array<Array<string | number>> = [
    ['nope'],
    ['0'],
    ['zz'],
    ['a', 'c'],
    ['a', 'b', 3],
    ['a', 'b', -4],
    ['a', 0],
    ['list', 'k'],
    ['z', 'x'],
    ['z', 0],
    ['a', 'b', 1, 'c', 'd'],
  ];
  for (const path of missing) assert.is(reader.readPath(value, path), undefined, JSON.stringify(path));
  assert.is(reader.readPath(encode(null), ['a']), undefined);
  assert.is(reader.readPath(encode({ a: null }), ['a']), null, 'a null field is there');
});

test('BatchReader.readPath: fields of one object read in any order, between objects of a batch', () => {
  const batch = encodeBatch(
    [{ event: { b: 1n, d: { e: 'x' }, f: 'y' } }, { event: { a: 'other', d: { e: 'z' } } }, { event: [1n] }],
    0,
  );
  const reader = new BatchReader(batch);
  const [first, second, third] = [...reader].map((view) => view.event);
  const reads: Array<[Uint8Array, Array<string | number>, unknown]> = [
    [first!, ['f'], 'y'],
    [first!, ['b'], 1n],
    [first!, ['c'], undefined],
    [second!, ['d', 'e'], 'z'],
    [first!, ['d', 'e'], 'x'],
    [first!, ['g'], undefined],
    [first!, ['a'], undefined],
    [second!, ['a'], 'other'],
    [third!, ['a'], undefined],
    [third!, [0], 1n],
  ];
  for (const [event, path, expected] of reads)
    assert.equal(reader.readPath(event, path), expected, JSON.stringify(path));
});

test('BatchReader.readPath reads record events and metadata', () => {
  const reader = new BatchReader(encodeBatch(events, 0));
  assert.equal(
    [...reader].map((r) => reader.readPath(r.event, ['counter', 'value'])),
    [undefined, 2.5, undefined],
  );
  assert.equal(
    [...reader].map((r) => reader.readPath(r.event, [1])),
    [undefined, undefined, 'two'],
  );
  assert.equal(
    [...reader].map((r) => reader.readPath(r.metadata, ['m'])),
    ['x', undefined, undefined],
  );
});

test('BatchWriter: append, appendWithMetadata and appendRaw round-trip', () => {
  const source = [...new BatchReader(encodeBatch(events, 0))];
  const w = new BatchWriter(BatchFlag.RAW);
  w.append('metric', { a: 1n }, { b: [1n, 'x'] });
  w.appendRaw(source[2]!.record);
  w.appendWithMetadata('log', { rerouted: true }, source[0]!.event);
  assert.is(w.count, 3);
  const batch = w.finish();
  assert.equal(decodeBatch(batch), {
    flags: BatchFlag.RAW,
    events: [
      { kind: 'metric', metadata: { a: 1n }, event: { b: [1n, 'x'] } },
      { kind: 'trace', metadata: {}, event: [1n, 'two'] },
      { kind: 'log', metadata: { rerouted: true }, event: { message: 'a', n: 1n } },
    ],
  });
});

test('BatchWriter.finish: an exact-size copy in its own, transferable ArrayBuffer', () => {
  const w = new BatchWriter();
  for (let i = 0; i < 100; i++) w.append('log', {}, { i: BigInt(i), pad: 'p'.repeat(i) });
  const batch = w.finish();
  assert.is(batch.byteOffset, 0);
  assert.is(batch.buffer.byteLength, batch.length);
  const moved = structuredClone(batch, { transfer: [batch.buffer] });
  assert.is(batch.length, 0, 'detached');
  assert.is(new BatchReader(moved).count, 100);
  assert.equal(decodeBatch(new BatchWriter().finish()), { flags: 0, events: [] });
});

test('BatchWriter: a finished writer takes no more records; the next writer starts empty', () => {
  const w = new BatchWriter();
  w.append('log', {}, { big: 'x'.repeat(5000) });
  w.finish();
  assert.throws(() => w.append('log', {}, {}), /not written to once finished/);
  assert.throws(() => w.finish(), /not written to once finished/);
  const next = new BatchWriter(BatchFlag.RAW);
  next.append('log', {}, { n: 1n });
  assert.equal(decodeBatch(next.finish()), {
    flags: BatchFlag.RAW,
    events: [{ kind: 'log', metadata: {}, event: { n: 1n } }],
  });
});

test('BatchWriter.appendRaw takes exactly one whole record', () => {
  const record = [...new BatchReader(encodeBatch(events, 0))][0]!.record;
  const w = new BatchWriter();
  assert.throws(
    () => w.appendRaw(record.subarray(0, -1)),
    new RegExp(`one whole record .* got ${record.length - 1} bytes`),
  );
  assert.throws(() => w.appendRaw(new Uint8Array(2)), /got 2 bytes/);
  assert.is(w.count, 0);
});

test('splitByBitmap: records whose bit is set and the others, in order, flags kept', () => {
  const all = Array.from({ length: 11 }, (_, i) => ({ event: { i: BigInt(i) } }));
  const batch = encodeBatch(all, BatchFlag.RESULTS);
  const bits = new Uint8Array([0b1000_0101, 0b0000_0110]); // records 0, 2, 7, 9, 10
  const { matched, unmatched, matchedCount, unmatchedCount } = splitByBitmap(batch, bits);
  const indexes = (b: Uint8Array) => decodeBatch(b).events.map((e) => Number((e.event as { i: bigint }).i));
  assert.equal(indexes(matched), [0, 2, 7, 9, 10]);
  assert.equal(indexes(unmatched), [1, 3, 4, 5, 6, 8]);
  assert.equal([matchedCount, unmatchedCount], [5, 6]);
  assert.is(decodeBatch(matched).flags, BatchFlag.RESULTS);
  assert.throws(
    () => splitByBitmap(batch, new Uint8Array(1)),
    /a bitmap of 1 bytes cannot cover a batch of 11 records/,
  );
});

test('withField inserts in key order, replaces, creates objects on the way, and copies the rest as bytes', () => {
  const event = encode({ b: 1, d: { x: new IntegralFloat(2) } });
  assert.equal(decode(withField(event, ['c'], encode('v'))), { b: 1n, c: 'v', d: { x: 2 } });
  assert.equal(decode(withField(event, ['b'], encode(null))), { b: null, d: { x: 2 } });
  assert.equal(decode(withField(event, ['d', 'y', 'z'], encode(true))), { b: 1n, d: { x: 2, y: { z: true } } });
  assert.equal(decode(withField(event, ['b', 'q'], encode(1))), { b: { q: 1n }, d: { x: 2 } });
  // The float stays a float: nothing else is decoded and encoded again.
  assert.equal([...withField(event, ['a'], encode(0))].slice(-9), [...encode(new IntegralFloat(2))]);
});

test('withoutField removes a nested field and leaves a value without it unchanged', () => {
  const event = encode({ a: 1, m: { s: 1, h: 'x' } });
  assert.equal(decode(withoutField(event, ['m', 's'])), { a: 1n, m: { h: 'x' } });
  assert.equal(decode(withoutField(event, ['a'])), { m: { s: 1n, h: 'x' } });
  assert.is(withoutField(event, ['zz']), event);
});

test('writeEdited makes top-level edits in one pass, byte for byte as withField and withoutField one by one', () => {
  const edited = (value: Uint8Array, edits: FieldEdit[]) => {
    const w = new ByteWriter();
    writeEdited(w, { value, edits });
    return [...w.finish()];
  };
  const stepwise = (value: Uint8Array, edits: FieldEdit[]) => [
    ...edits.reduce((v, [name, to]) => (to === undefined ? withoutField(v, [name]) : withField(v, [name], to)), value),
  ];
  const event = encode({ b: 1, d: { x: new IntegralFloat(2) }, é: 'accent', m: 'text' });
  const cases: FieldEdit[][] = [
    [],
    [['a', encode(0)]],
    [
      ['z', encode('last')],
      ['a', encode('first')],
      ['c', encode([1])],
    ],
    [
      ['b', encode(null)],
      ['m', undefined],
      ['e', encode(true)],
    ],
    [
      ['d', undefined],
      ['b', undefined],
      ['é', undefined],
      ['m', undefined],
    ],
    [
      ['absent', undefined],
      ['@timestamp', encode('t')],
      ['é', encode('replaced')],
    ],
  ];
  for (const edits of cases)
    assert.equal(edited(event, edits), stepwise(event, edits), JSON.stringify(edits.map(([n]) => n)));
  // A value that is not an object is edited as `{}`.
  assert.equal(
    decode(
      new Uint8Array(
        edited(encode('plain'), [
          ['k', encode(1)],
          ['gone', undefined],
        ]),
      ),
    ),
    { k: 1n },
  );
});

test('readPathEncoded returns the exact encoding of the value found', () => {
  const reader = new BatchReader(encodeBatch([{ event: { a: [1, { b: 'x' }] } }], 0));
  const [record] = [...reader];
  assert.equal([...reader.readPathEncoded(record!.event, ['a', 1, 'b'])!], [...encode('x')]);
  assert.is(reader.readPathEncoded(record!.event, ['a', 5]), undefined);
});

test.run();
