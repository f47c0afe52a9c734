// Byte-level access to input batches (docs/abi.md §2) for the host: fan-out, routing and TS transforms that
// read one field (throttle keys, dedupe fields, sample keys) walk records as views and decode only what
// they read; writers append records verbatim. The layout itself lives in runtime/batch.ts.

import {
  decodeBatch, expectEnd, readHeader, readRecord, writeCount, writeHeader, writeInputRecord, writeRecord,
  type EventKind, type InputEvent,
} from './batch.js';
import { ByteReader, ByteWriter, encodeValue, Wire } from './codec.js';
import type { RemapValue } from './values.js';

/** One record of an input batch, as views into the batch's bytes. */
export interface RecordView {
  index: number;
  kind: EventKind;
  /** The whole record: u32 length, then the record (what `BatchWriter.appendRaw` takes). */
  record: Uint8Array;
  /** The encoded metadata value. */
  metadata: Uint8Array;
  /** The encoded event value. */
  event: Uint8Array;
}

/** A path into a value: object fields and array indexes (negative from the end). */
export type ValuePath = ReadonlyArray<string | number>;

/** Reads an input batch without decoding its events. */
export class BatchReader implements Iterable<RecordView> {
  readonly flags: number;
  readonly count: number;
  private readonly recordsAt: number;
  /** UTF-8 of the field names `readPath` has looked up. */
  private readonly keys = new Map<string, Buffer>();

  /** Checks the header; records are checked as they are read. */
  constructor(readonly bytes: Uint8Array) {
    const r = new ByteReader(bytes);
    ({ flags: this.flags, count: this.count } = readHeader(r));
    this.recordsAt = r.at;
  }

  *[Symbol.iterator](): Iterator<RecordView> {
    const r = new ByteReader(this.bytes, this.recordsAt);
    for (let index = 0; index < this.count; index++) {
      const start = r.at;
      const { kind, metadata, event } = readRecord(r, index, (kind, _code, rest) => {
        const metadataAt = rest.at;
        rest.skip();
        const metadata = rest.bytes.subarray(metadataAt, rest.at);
        return { kind, metadata, event: rest.take(rest.bytes.length - rest.at) };
      });
      yield { index, kind, record: this.bytes.subarray(start, r.at), metadata, event };
    }
    expectEnd(r);
  }

  /**
   * The value at `path` in an encoded value (a record's `metadata` or `event`), or `undefined` when the path
   * leads nowhere (a missing field or index, or a container of the other kind). Walks containers by their
   * byte lengths and decodes only the value found.
   */
  readPath(value: Uint8Array, path: ValuePath): RemapValue | undefined {
    const r = new ByteReader(value);
    for (const segment of path) {
      const found = typeof segment === 'number' ? enterIndex(r, segment) : enterField(r, this.key(segment));
      if (!found) return undefined;
    }
    return r.value();
  }

  /** Decodes one record (for tests, tap and unit-test output). */
  decodeRecord(view: RecordView): Required<InputEvent> {
    return { kind: view.kind, metadata: new ByteReader(view.metadata).value() as object, event: new ByteReader(view.event).value() };
  }

  /** Decodes every record. */
  decodeAll(): Array<Required<InputEvent>> {
    return decodeBatch(this.bytes).events;
  }

  private key(field: string): Buffer {
    let key = this.keys.get(field);
    if (key === undefined) {
      key = Buffer.from(field, 'utf8');
      this.keys.set(field, key);
    }
    return key;
  }
}

/** Moves `r` from an array to its item `index`; false when `r` is not at an array or it has no such item. */
function enterIndex(r: ByteReader, index: number): boolean {
  if (r.u8() !== Wire.Array) return false;
  const count = r.u32();
  r.u32(); // byte length
  const at = index < 0 ? count + index : index;
  if (at < 0 || at >= count) return false;
  for (let i = 0; i < at; i++) r.skip();
  return true;
}

/** Moves `r` from an object to the value of `key`; false when `r` is not at an object or it has no such key. */
function enterField(r: ByteReader, key: Uint8Array): boolean {
  if (r.u8() !== Wire.Object) return false;
  const count = r.u32();
  r.u32(); // byte length
  for (let i = 0; i < count; i++) {
    const order = Buffer.compare(r.sized(), key);
    if (order === 0) return true;
    if (order > 0) return false; // keys are sorted byte-wise
    r.skip();
  }
  return false;
}

/** Builds an input batch record by record. */
export class BatchWriter {
  private readonly w = new ByteWriter();
  private records = 0;

  constructor(flags = 0) {
    writeHeader(this.w, flags, 0);
  }

  get count(): number {
    return this.records;
  }

  /** Appends a record as it is (u32 length + record, e.g. a `RecordView.record` or a failure's record). */
  appendRaw(record: Uint8Array): void {
    const length = record.length < 4 ? -1 : new DataView(record.buffer, record.byteOffset, 4).getUint32(0, true);
    if (length !== record.length - 4) {
      throw new Error(`appendRaw takes one whole record (u32 length + record); got ${record.length} bytes`);
    }
    this.w.raw(record);
    this.records++;
  }

  /** Appends an event given as values. */
  append(kind: EventKind, metadata: RemapValue, event: RemapValue): void {
    writeInputRecord(this.w, kind, metadata, event);
    this.records++;
  }

  /** Appends an event given as encoded bytes with new metadata (e.g. a rerouted event annotated). */
  appendWithMetadata(kind: EventKind, metadata: RemapValue, event: Uint8Array): void {
    writeRecord(this.w, kind, 0, () => {
      encodeValue(this.w, metadata);
      this.w.raw(event);
    });
    this.records++;
  }

  /** The batch: an exact-size copy in an ArrayBuffer of its own (transferable to a worker). */
  finish(): Uint8Array {
    writeCount(this.w, this.records);
    return new Uint8Array(this.w.finish());
  }
}

/** Splits a batch by a condition bitmap (`runCondition`): records whose bit is set, and the others, in order. */
export function splitByBitmap(
  batch: Uint8Array,
  bits: Uint8Array,
): { matched: Uint8Array; unmatched: Uint8Array; matchedCount: number; unmatchedCount: number } {
  const reader = new BatchReader(batch);
  if (bits.length < (reader.count + 7) >> 3) {
    throw new Error(`a bitmap of ${bits.length} bytes cannot cover a batch of ${reader.count} records`);
  }
  const matched = new BatchWriter(reader.flags);
  const unmatched = new BatchWriter(reader.flags);
  for (const { index, record } of reader) {
    (bits[index >> 3]! & (1 << (index & 7)) ? matched : unmatched).appendRaw(record);
  }
  return { matched: matched.finish(), unmatched: unmatched.finish(), matchedCount: matched.count, unmatchedCount: unmatched.count };
}
