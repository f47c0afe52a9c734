import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ABI_VERSION,
  BatchFlag,
  NdjsonFlag,
  decodeBatch,
  decodeOutput,
  decodeResults,
  encodeBatch,
  encodeOutput,
  type OutputRecord,
} from '../../abi/batch.js';
import { Timestamp } from '../../abi/values.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytesOf = (hexText: string) => new Uint8Array(Buffer.from(hexText.replace(/\s+/g, ''), 'hex'));

test('flag values and the ABI version are those of docs/abi.md', () => {
  assert.is(ABI_VERSION, 6);
  assert.equal([BatchFlag.RESULTS, BatchFlag.RAW], [1, 2]);
  assert.equal([NdjsonFlag.PRINT_OBJECT, NdjsonFlag.JSON], [1, 2]);
});

test('an input batch has the documented byte layout', () => {
  const batch = encodeBatch([{ event: { a: 1 } }, { kind: 'metric', metadata: { m: true }, event: 'x' }], 3);
  assert.is(
    hex(batch),
    [
      '53564342 0600 0300 02000000', // "SVCB", version 6, flags 3, 2 records
      '24000000 00 00 0000', // length 36, log
      '09 00000000 00000000', // metadata {}
      '09 01000000 0e000000 01000000 61 03 0100000000000000', // event { a: 1 }
      '19000000 01 00 0000', // length 25, metric
      '09 01000000 06000000 01000000 6d 02', // metadata { m: true }
      '05 01000000 78', // event "x"
    ]
      .join('')
      .replace(/\s+/g, ''),
  );
});

test('input batches round-trip, kind defaulting to log and metadata to {}', () => {
  const events = [
    { event: { message: 'hello', n: 3n, f: 1.5, t: new Timestamp(5n), nested: [null, true, { z: [] }] } },
    { kind: 'trace' as const, metadata: { source: 'x' }, event: [] },
    { kind: 'metric' as const, event: null },
  ];
  const decoded = decodeBatch(encodeBatch(events, BatchFlag.RAW));
  assert.is(decoded.flags, BatchFlag.RAW);
  assert.equal(decoded.events, [
    { kind: 'log', metadata: {}, event: events[0]!.event },
    { kind: 'trace', metadata: { source: 'x' }, event: [] },
    { kind: 'metric', metadata: {}, event: null },
  ]);
});

test('an empty batch is just the header', () => {
  assert.is(hex(encodeBatch([], 0)), '535643420600000000000000');
  assert.equal(decodeBatch(encodeBatch([], 0)).events, []);
  assert.equal(decodeOutput(bytesOf('535643420600000000000000')), []);
});

test('a hand-written output batch decodes to each outcome', () => {
  const output = bytesOf(
    [
      '53564342 0600 0000 04000000', // no flags, 4 records
      '24000000 00 00 0000 02000000', // log, kept, 2 events
      '09 00000000 00000000 03 0100000000000000', // {} and 1
      '09 00000000 00000000 02', // {} and true
      '1e000000 01 01 0000 05000000 626f6f6d21', // metric, error "boom!"
      '09 00000000 00000000 05 03000000 616263', // {} and "abc"
      '11000000 02 02 0000 07000000 61626f72746564', // trace, aborted "aborted"
      '00 00', // null and null
      '04000000 00 03 0000', // log, dropped
    ].join(''),
  );
  assert.equal(decodeOutput(output), [
    {
      kind: 'log',
      outcome: 'kept',
      events: [
        { metadata: {}, event: 1n },
        { metadata: {}, event: true },
      ],
    },
    { kind: 'metric', outcome: 'error', message: 'boom!', metadata: {}, event: 'abc' },
    { kind: 'trace', outcome: 'aborted', message: 'aborted', metadata: null, event: null },
    { kind: 'log', outcome: 'dropped' },
  ]);
});

test('with RESULTS, kept records carry the result after their events', () => {
  const output = bytesOf('53564342 0600 0100 01000000 11000000 00 00 0000 00000000 04 000000000000f83f');
  assert.equal(decodeOutput(output), [{ kind: 'log', outcome: 'kept', events: [], result: 1.5 }]);
});

test('output batches round-trip', () => {
  const records: OutputRecord[] = [
    { kind: 'log', outcome: 'kept', events: [{ metadata: { a: 'b' }, event: { message: 'x' } }], result: 'r' },
    { kind: 'metric', outcome: 'kept', events: [], result: null },
    { kind: 'trace', outcome: 'error', message: 'function call error for "f" at (0:3): é', metadata: {}, event: [1n] },
    { kind: 'log', outcome: 'aborted', message: 'aborted', metadata: {}, event: {} },
    { kind: 'log', outcome: 'dropped' },
  ];
  assert.equal(decodeOutput(encodeOutput(records, BatchFlag.RESULTS)), records);
  const withoutResults = records.map((r) => (r.outcome === 'kept' ? { ...r, result: undefined } : r));
  const decoded = decodeOutput(encodeOutput(withoutResults, 0));
  assert.equal(decoded[0], {
    kind: 'log',
    outcome: 'kept',
    events: [{ metadata: { a: 'b' }, event: { message: 'x' } }],
  });
});

test("decodeResults: each record's result or failure, its events skipped; a batch without results is refused", () => {
  const records: OutputRecord[] = [
    {
      kind: 'log',
      outcome: 'kept',
      events: [
        { metadata: { a: 'b' }, event: { message: 'x', n: [1n, { deep: true }] } },
        { metadata: {}, event: { message: 'y' } },
      ],
      result: 'first',
    },
    { kind: 'metric', outcome: 'kept', events: [], result: 2n },
    { kind: 'log', outcome: 'error', message: 'function call error for "f" at (0:3): é', metadata: {}, event: [1n] },
    { kind: 'log', outcome: 'aborted', message: 'aborted', metadata: { m: 1n }, event: { a: 'b' } },
    { kind: 'log', outcome: 'dropped' },
  ];
  assert.equal(decodeResults(encodeOutput(records, BatchFlag.RESULTS)), [
    { outcome: 'kept', result: 'first' },
    { outcome: 'kept', result: 2n },
    { outcome: 'error', message: 'function call error for "f" at (0:3): é' },
    { outcome: 'aborted', message: 'aborted' },
    { outcome: 'dropped' },
  ]);
  assert.throws(() => decodeResults(encodeOutput(records.slice(4), 0)), /no results/);
});

test('malformed batches are refused with the reason', () => {
  assert.throws(() => decodeOutput(bytesOf('00')), /does not start with "SVCB"/);
  assert.throws(() => decodeOutput(bytesOf('4e4f5045 0100 0000 00000000')), /does not start with "SVCB"/);
  assert.throws(
    () => decodeOutput(bytesOf('53564342 0100 0000 00000000')),
    /batch ABI version 1 is not supported \(expected 6\)/,
  );
  assert.throws(() => decodeOutput(bytesOf('53564342 0600 0000 01000000')), /record 0 is truncated/);
  assert.throws(() => decodeOutput(bytesOf('53564342 0600 0000 01000000 08000000 00 00')), /record 0 is truncated/);
  assert.throws(() => decodeOutput(bytesOf('53564342 0600 0000 01000000 04000000 07 03 0000')), /unknown event kind 7/);
  assert.throws(() => decodeOutput(bytesOf('53564342 0600 0000 01000000 04000000 00 09 0000')), /unknown outcome 9/);
  assert.throws(
    () => decodeOutput(bytesOf('53564342 0600 0000 01000000 05000000 00 03 0000 00')),
    /record 0 is 5 bytes long but its content ends at byte 4/,
  );
  assert.throws(() => decodeOutput(bytesOf('53564342 0600 0000 00000000 00')), /1 bytes after its last record/);
});

test.run();
