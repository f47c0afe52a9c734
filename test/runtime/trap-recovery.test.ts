import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BatchRecords,
  errorRecord,
  joinBatch,
  recordBytes,
  recoverFromTrap,
  TextLines,
  type Attempt,
} from '../../runtime/trap-recovery.js';
import { decodeOutput, encodeBatch } from '../../abi/batch.js';

/** What a recovery ran: the ranges attempted, and the pieces it returned as [start, end] or ['failed', unit]. */
function recover(count: number, first: { index?: number }, run: (start: number, end: number) => Attempt<string>) {
  const attempted: Array<[number, number]> = [];
  const pieces = recoverFromTrap({ index: first.index, message: 'trap' }, count, (start, end) => {
    attempted.push([start, end]);
    return run(start, end);
  });
  return {
    attempted,
    pieces: pieces.map((piece) => ('value' in piece ? [piece.start, piece.end] : ['failed', piece.failed])),
  };
}

test('a unit that traps on its own fails; the units before and after it run again, in order', () => {
  // Unit 3 always traps; the first call (all of 0..6) trapped there.
  const { attempted, pieces } = recover(6, { index: 3 }, (start, end) =>
    start <= 3 && 3 < end ? { trap: { index: 3 - start, message: 'trap' } } : { value: 'ok' },
  );
  assert.equal(attempted, [
    [0, 3],
    [3, 6],
    [4, 6],
  ]);
  assert.equal(pieces, [
    [0, 3],
    ['failed', 3],
    [4, 6],
  ]);
});

test('units that trap only together (a shared arena filling up) are split until each range fits: none fails', () => {
  // At most two units fit in one call: the third traps.
  const { pieces } = recover(7, { index: 2 }, (start, end) =>
    end - start > 2 ? { trap: { index: 2, message: 'trap' } } : { value: 'ok' },
  );
  assert.equal(pieces, [
    [0, 2],
    [2, 4],
    [4, 6],
    [6, 7],
  ]);
});

test('a trap before any unit ran (copying the input in) halves the range; a single unit then fails', () => {
  const { pieces } = recover(4, {}, (start, end) =>
    start <= 2 && 2 < end ? { trap: { index: undefined, message: 'trap' } } : { value: 'ok' },
  );
  assert.equal(pieces, [
    [0, 2],
    ['failed', 2],
    [3, 4],
  ]);
});

test('BatchRecords slices a batch into batches of its records; errorRecord keeps the record as it arrived', () => {
  const batch = encodeBatch(
    [{ event: { n: 0 } }, { event: { n: 1 }, metadata: { m: true } }, { kind: 'metric', event: { n: 2 } }],
    7,
  );
  const records = new BatchRecords(batch);
  assert.equal([records.flags, records.count], [7, 3]);
  assert.equal(
    records.slice(1, 3),
    encodeBatch(
      [
        { event: { n: 1 }, metadata: { m: true } },
        { kind: 'metric', event: { n: 2 } },
      ],
      7,
    ),
  );
  assert.equal(
    joinBatch(7, 2, [recordBytes(records.slice(0, 1)), recordBytes(records.slice(2, 3))]),
    encodeBatch([{ event: { n: 0 } }, { kind: 'metric', event: { n: 2 } }], 7),
  );
  assert.equal(decodeOutput(joinBatch(0, 1, [errorRecord(records.record(1), 'no')])), [
    { kind: 'log', outcome: 'error', message: 'no', metadata: { m: true }, event: { n: 1n } },
  ]);
});

test('TextLines slices NDJSON by line, the last line with or without its newline', () => {
  const text = Buffer.from('a\n\nbc\nd');
  const lines = new TextLines(text, 4);
  assert.equal(
    [0, 1, 2, 3].map((i) => Buffer.from(lines.slice(i, i + 1)).toString()),
    ['a\n', '\n', 'bc\n', 'd'],
  );
  assert.is(Buffer.from(lines.slice(1, 4)).toString(), '\nbc\nd');
});

test.run();
