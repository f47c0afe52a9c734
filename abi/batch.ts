// Batches of encoded events (docs/abi.md §2), JS side: the input a compiled module's `run_batch` reads
// and the output it writes. Values inside records use the binary codec of abi/codec.ts.

import { ByteReader, ByteWriter, encodeValue } from './codec.js';
import type { RemapValue } from './values.js';
import {
  ABI_VERSION,
  BATCH_HEADER_SIZE,
  BATCH_MAGIC,
  BatchFlag,
  BatchHeaderField,
  ChainFlag,
  NdjsonFlag,
} from './wire/batch.js';

export { ABI_VERSION, BATCH_HEADER_SIZE, BatchFlag, ChainFlag, NdjsonFlag };

/** Event kinds, in the order of their wire codes (`EventKind` of abi/wire/batch.ts). */
export const EVENT_KINDS = ['log', 'metric', 'trace'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface InputEvent {
  kind?: EventKind;
  metadata?: object;
  event: unknown;
}

interface EmittedEvent {
  metadata: RemapValue;
  event: RemapValue;
}

export type OutputRecord =
  | { kind: EventKind; outcome: 'kept'; events: EmittedEvent[]; result?: RemapValue }
  | { kind: EventKind; outcome: 'error' | 'aborted'; message: string; metadata: RemapValue; event: RemapValue }
  | { kind: EventKind; outcome: 'dropped' };

/** Outcomes, in the order of their wire codes (`Outcome` of abi/wire/batch.ts). */
const OUTCOMES = ['kept', 'error', 'aborted', 'dropped'] as const;

export interface BatchHeader {
  flags: number;
  count: number;
}

// ---- layout: the header and the fixed part of a record are written and read only here -----------------

export function writeHeader(w: ByteWriter, flags: number, count: number): void {
  w.u32(BATCH_MAGIC);
  w.u16(ABI_VERSION);
  w.u16(flags);
  w.u32(count);
}

/** Sets the record count of the header `w` starts with (for writers that learn it at the end). */
export function writeCount(w: ByteWriter, count: number): void {
  w.view.setUint32(BatchHeaderField.Count, count, true);
}

/** A copy of a batch with other header flags (e.g. an input batch run for its results). */
export function withFlags(batch: Uint8Array, flags: number): Uint8Array {
  const copy = batch.slice();
  new DataView(copy.buffer).setUint16(BatchHeaderField.Flags, flags, true);
  return copy;
}

/** Reads and checks a batch header. */
export function readHeader(r: ByteReader): BatchHeader {
  if (r.bytes.length - r.at < BATCH_HEADER_SIZE || r.u32() !== BATCH_MAGIC) {
    throw new Error('not a remap batch: it does not start with "SVCB"');
  }
  const version = r.u16();
  if (version !== ABI_VERSION)
    throw new Error(`batch ABI version ${version} is not supported (expected ${ABI_VERSION})`);
  return { flags: r.u16(), count: r.u32() };
}

/** Writes one length-prefixed record: `u8 kind, u8 code, u16 0`, then `body`. */
export function writeRecord(w: ByteWriter, kind: EventKind, code: number, body: () => void): void {
  const lengthAt = startRecord(w, kind, code);
  body();
  endRecord(w, lengthAt);
}

/** Starts a record (`writeRecord` without a body to call): returns where its length goes, for `endRecord`. */
export function startRecord(w: ByteWriter, kind: EventKind, code: number): number {
  const lengthAt = w.reserve(4);
  w.u8(EVENT_KINDS.indexOf(kind));
  w.u8(code);
  w.u16(0);
  return lengthAt;
}

/** Ends a record `startRecord` started, once its body is written. */
export function endRecord(w: ByteWriter, lengthAt: number): void {
  w.view.setUint32(lengthAt, w.length - lengthAt - 4, true);
}

/** Reads one length-prefixed record: `body` gets `r` at the rest of the record, which ends at `end`, and must
 * read it to its end (`r` itself, not a reader per record: making those was much of a batch's reading). */
function readRecord<T>(
  r: ByteReader,
  index: number,
  body: (kind: EventKind, code: number, rest: ByteReader, end: number) => T,
): T {
  const head = { kind: EVENT_KINDS[0] as EventKind, code: 0, start: 0, end: 0 };
  readRecordHead(r, index, head);
  const out = body(head.kind, head.code, r, head.end);
  expectRecordEnd(r, index, head);
  return out;
}

/** Where a record is, and its kind and code, as `readRecordHead` reads them. */
export interface RecordHead {
  kind: EventKind;
  code: number;
  /** Where its u32 length starts, and where it ends. */
  start: number;
  end: number;
}

/** Reads the length and fixed part of record `index` into `head`, leaving `r` at the rest of the record (for a
 * walk that fills one head for every record; `readRecord` otherwise). */
export function readRecordHead(r: ByteReader, index: number, head: RecordHead): void {
  head.start = r.at;
  const length = r.bytes.length - r.at < 4 ? -1 : r.u32();
  if (length < 4 || length > r.bytes.length - r.at) throw new Error(`batch record ${index} is truncated`);
  head.end = r.at + length;
  const kindCode = r.u8();
  const kind = EVENT_KINDS[kindCode];
  if (kind === undefined) throw new Error(`batch record ${index} has an unknown event kind ${kindCode}`);
  head.kind = kind;
  head.code = r.u8();
  r.at += 2;
}

/** Checks that the rest of the record was read to its end. */
function expectRecordEnd(r: ByteReader, index: number, head: RecordHead): void {
  if (r.at !== head.end) {
    const length = head.end - head.start - 4;
    throw new Error(
      `batch record ${index} is ${length} bytes long but its content ends at byte ${r.at - head.start - 4}`,
    );
  }
}

// ---- input ---------------------------------------------------------------------------------------------

/** Encodes events as an input batch (metadata defaults to `{}`, the kind to `log`). */
export function encodeBatch(events: readonly InputEvent[], flags: number): Uint8Array {
  const w = new ByteWriter();
  writeHeader(w, flags, events.length);
  for (const { kind = 'log', metadata = {}, event } of events) writeInputRecord(w, kind, metadata, event);
  return w.finish();
}

/** Writes one input record. */
export function writeInputRecord(w: ByteWriter, kind: EventKind, metadata: unknown, event: unknown): void {
  writeRecord(w, kind, 0, () => {
    encodeValue(w, metadata);
    encodeValue(w, event);
  });
}

/** Decodes an input batch (the inverse of `encodeBatch`, for tests and tools). */
export function decodeBatch(bytes: Uint8Array): { flags: number; events: Array<Required<InputEvent>> } {
  const r = new ByteReader(bytes);
  const { flags, count } = readHeader(r);
  const events = Array.from({ length: count }, (_, index) =>
    readRecord(r, index, (kind, _code, record) => ({
      kind,
      metadata: record.value() as object,
      event: record.value(),
    })),
  );
  expectEnd(r);
  return { flags, events };
}

// ---- output --------------------------------------------------------------------------------------------

/** Decodes the output batch of `run_batch`. */
export function decodeOutput(bytes: Uint8Array): OutputRecord[] {
  const r = new ByteReader(bytes);
  const { flags, count } = readHeader(r);
  const records = Array.from({ length: count }, (_, index) =>
    readRecord(r, index, (kind, code, record): OutputRecord => {
      const outcome = OUTCOMES[code];
      switch (outcome) {
        case 'kept': {
          const events = Array.from({ length: record.u32() }, () => ({
            metadata: record.value(),
            event: record.value(),
          }));
          return flags & BatchFlag.RESULTS
            ? { kind, outcome, events, result: record.value() }
            : { kind, outcome, events };
        }
        case 'error':
        case 'aborted': {
          const message = Buffer.from(record.sized()).toString('utf8');
          return { kind, outcome, message, metadata: record.value(), event: record.value() };
        }
        case 'dropped':
          return { kind, outcome };
      }
      throw new Error(`batch record ${index} has an unknown outcome ${code}`);
    }),
  );
  expectEnd(r);
  return records;
}

/** What a record of an output batch run with `BatchFlag.RESULTS` gave: its result, or why it failed. */
export type OutputResult =
  | { outcome: 'kept'; result: RemapValue }
  | { outcome: 'error' | 'aborted'; message: string }
  | { outcome: 'dropped' };

/** The results of an output batch run with `BatchFlag.RESULTS`, its events skipped, not decoded: for a
 * program run for its result alone (a sink's template), where decoding them cost most of the call. */
export function decodeResults(bytes: Uint8Array): OutputResult[] {
  const r = new ByteReader(bytes);
  const { flags, count } = readHeader(r);
  if (!(flags & BatchFlag.RESULTS)) throw new Error('the output batch has no results');
  const results = Array.from({ length: count }, (_, index) =>
    readRecord(r, index, (_kind, code, record): OutputResult => {
      const outcome = OUTCOMES[code];
      switch (outcome) {
        case 'kept':
          for (let events = record.u32(); events > 0; events--) {
            record.skip();
            record.skip();
          }
          return { outcome, result: record.value() };
        case 'error':
        case 'aborted': {
          const message = Buffer.from(record.sized()).toString('utf8');
          record.skip();
          record.skip();
          return { outcome, message };
        }
        case 'dropped':
          return { outcome };
      }
      throw new Error(`batch record ${index} has an unknown outcome ${code}`);
    }),
  );
  expectEnd(r);
  return results;
}

/** Encodes an output batch (the inverse of `decodeOutput`, for tests and hosts that drop records). */
export function encodeOutput(records: readonly OutputRecord[], flags: number): Uint8Array {
  const w = new ByteWriter();
  writeHeader(w, flags, records.length);
  for (const record of records) {
    writeRecord(w, record.kind, OUTCOMES.indexOf(record.outcome), () => {
      switch (record.outcome) {
        case 'kept':
          w.u32(record.events.length);
          for (const { metadata, event } of record.events) {
            encodeValue(w, metadata);
            encodeValue(w, event);
          }
          if (flags & BatchFlag.RESULTS) encodeValue(w, record.result ?? null);
          return;
        case 'error':
        case 'aborted':
          w.sized(Buffer.from(record.message, 'utf8'));
          encodeValue(w, record.metadata);
          encodeValue(w, record.event);
          return;
        case 'dropped':
          return;
      }
    });
  }
  return w.finish();
}

// ---- failures of chain and condition mode (docs/abi.md §2.1, §2.2) ------------------------------------

/** An input record whose program failed in `run_chain` or `run_condition`. */
export interface ChainFailure {
  /** Index of the record in the input batch. */
  index: number;
  outcome: 'error' | 'aborted';
  message: string;
  /** The input record as it arrived (u32 length + record, for `BatchWriter.appendRaw`); not for conditions. */
  record?: Uint8Array;
}

/** Decodes a failures buffer; records are views into `bytes`. */
export function decodeFailures(bytes: Uint8Array): ChainFailure[] {
  const r = new ByteReader(bytes);
  const failures: ChainFailure[] = [];
  while (r.at < bytes.length) {
    const index = r.u32();
    const code = r.u8();
    const outcome = OUTCOMES[code];
    if (outcome !== 'error' && outcome !== 'aborted') throw new Error(`failure of record ${index} has outcome ${code}`);
    r.u8();
    r.u16();
    const message = Buffer.from(r.sized()).toString('utf8');
    const recordLength = r.u32();
    if (recordLength === 0) {
      failures.push({ index, outcome, message });
    } else {
      r.at -= 4;
      failures.push({ index, outcome, message, record: r.take(4 + recordLength) });
    }
  }
  return failures;
}

export function expectEnd(r: ByteReader): void {
  if (r.at !== r.bytes.length) throw new Error(`batch has ${r.bytes.length - r.at} bytes after its last record`);
}
