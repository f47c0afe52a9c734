// Recovery from traps in a driver call: one event that traps (an allocation past the memory limit, a stack
// overflow, a bug in the stdlib) costs exactly that event. The instance is replaced after a trap, the
// events of the call are run again in ranges around the one that trapped, and their results are joined in
// order, with the trapping event reported as failed with the trap's message.

import { BATCH_HEADER_SIZE, readHeader, writeHeader, writeRecord, EVENT_KINDS } from '../abi/batch.js';
import { ByteReader, ByteWriter } from '../abi/codec.js';
import { Outcome } from '../abi/wire/batch.js';

/** A driver call that trapped: the record or line it was running (relative to the call's input, when
 * known), and the message the event fails with. */
export interface Trap {
  index: number | undefined;
  message: string;
}

/** The result of one driver call on a range of units, or its trap. */
export type Attempt<T> = { value: T } | { trap: Trap };

/** A range of units that ran, or one unit that failed on its own. */
export type Piece<T> = { start: number; end: number; value: T } | { failed: number; message: string };

/**
 * Recovers from `trap`, raised by a driver call on units [0, count) (records of a batch, lines of NDJSON):
 * runs ranges of them again through `attempt(start, end)`, which runs a range on an empty arena of a sound
 * instance. After a trap at the first unit of a range, that unit fails and the rest runs again. A trap at a
 * later unit may come from the memory the units before it took (the arena is freed per call, not per
 * event), so the range is split there and both parts run again. A trap before any unit (copying the input
 * in) halves the range. Returns the pieces in unit order.
 */
export function recoverFromTrap<T>(
  trap: Trap,
  count: number,
  attempt: (start: number, end: number) => Attempt<T>,
): Array<Piece<T>> {
  const pieces: Array<Piece<T>> = [];
  // A stack of ranges still to run, the next one last.
  const pending: Array<[number, number]> = [];
  const retry = (start: number, end: number, trap: Trap) => {
    const at = trap.index === undefined || trap.index >= end - start ? undefined : start + trap.index;
    if (at === start || (at === undefined && end - start === 1)) {
      pieces.push({ failed: start, message: trap.message });
      pending.push([start + 1, end]);
    } else {
      const split = at ?? start + ((end - start) >> 1);
      pending.push([split, end], [start, split]);
    }
  };
  retry(0, count, trap);
  while (pending.length > 0) {
    const [start, end] = pending.pop()!;
    if (start >= end) continue;
    const result = attempt(start, end);
    if ('value' in result) pieces.push({ start, end, value: result.value });
    else retry(start, end, result.trap);
  }
  return pieces;
}

/** The records of a batch (docs/abi.md §2) by index, located on first use. */
export class BatchRecords {
  readonly flags: number;
  readonly count: number;
  private offsets: number[] | undefined;

  constructor(private readonly batch: Uint8Array) {
    ({ flags: this.flags, count: this.count } = readHeader(new ByteReader(batch)));
  }

  /** A batch of records [start, end). */
  slice(start: number, end: number): Uint8Array {
    const offsets = this.locate();
    const w = new ByteWriter();
    writeHeader(w, this.flags, end - start);
    w.raw(this.batch.subarray(offsets[start]!, offsets[end]!));
    return w.finish();
  }

  /** Record `index` whole: u32 length, then the record. */
  record(index: number): Uint8Array {
    const offsets = this.locate();
    return this.batch.subarray(offsets[index]!, offsets[index + 1]!);
  }

  private locate(): number[] {
    return (this.offsets ??= recordOffsets(this.batch, this.count));
  }
}

/** Where each of the `count` records of a batch starts, and where the last one ends. */
function recordOffsets(batch: Uint8Array, count: number): number[] {
  const view = new DataView(batch.buffer, batch.byteOffset, batch.byteLength);
  const offsets = [BATCH_HEADER_SIZE];
  for (let i = 0, at = BATCH_HEADER_SIZE; i < count; i++) {
    at += 4 + view.getUint32(at, true);
    offsets.push(at);
  }
  return offsets;
}

/** The records after the header of a batch (input or output form), for joining batches. */
export function recordBytes(batch: Uint8Array): Uint8Array {
  return batch.subarray(BATCH_HEADER_SIZE);
}

/** Joins record sections into one batch with `flags` and `count` records. */
export function joinBatch(flags: number, count: number, sections: readonly Uint8Array[]): Uint8Array {
  const w = new ByteWriter();
  writeHeader(w, flags, count);
  for (const section of sections) w.raw(section);
  // An exact copy: batches move to worker threads by transfer.
  return w.finish().slice();
}

/** The lines of NDJSON text by index, located on first use. */
export class TextLines {
  private starts: number[] | undefined;

  constructor(
    readonly text: Uint8Array,
    readonly count: number,
  ) {}

  /** Lines [start, end) with their newlines. */
  slice(start: number, end: number): Uint8Array {
    const starts = (this.starts ??= lineStarts(this.text, this.count));
    return this.text.subarray(starts[start]!, starts[end]!);
  }
}

/** Where each of the `count` lines of `text` starts, and where the last one ends. */
function lineStarts(text: Uint8Array, count: number): number[] {
  const starts = [0];
  for (let at = text.indexOf(NEWLINE); at >= 0 && starts.length <= count; at = text.indexOf(NEWLINE, at + 1))
    starts.push(at + 1);
  if (starts.length === count) starts.push(text.length);
  return starts;
}

const NEWLINE = 0x0a;

/**
 * The `run_batch` output record of an input record that failed with `message`: outcome error, with the
 * metadata and event as they arrived.
 */
export function errorRecord(input: Uint8Array, message: string): Uint8Array {
  const w = new ByteWriter();
  writeRecord(w, EVENT_KINDS[input[4]!]!, Outcome.Error, () => {
    w.sized(Buffer.from(message, 'utf8'));
    w.raw(input.subarray(8));
  });
  return w.finish();
}
