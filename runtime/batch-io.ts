// Byte-level access to input batches (docs/abi.md §2) for the pipeline: fan-out, routing and TS transforms that
// read one field (throttle keys, dedupe fields, sample keys) walk records as views and decode only what
// they read; writers append records verbatim. The layout itself lives in runtime/batch.ts.

import {
  decodeBatch,
  endRecord,
  expectEnd,
  readHeader,
  readRecordHead,
  startRecord,
  writeCount,
  writeHeader,
  writeInputRecord,
  writeRecord,
  type EventKind,
  type InputEvent,
  type RecordHead,
} from '../abi/batch.js';
import { ByteReader, ByteWriter, EMPTY_OBJECT, encodeValue, Wire } from '../abi/codec.js';
import { BATCH_HEADER_SIZE, BatchHeaderField } from '../abi/wire/batch.js';
import type { RemapValue } from '../abi/values.js';

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
  /** Where `readPath` reads: the reader it returns is used up before the next call. */
  private readonly pathReader = new ByteReader(new Uint8Array(0));
  /** The fields of the object `readPath` read last. */
  private readonly fields = new FieldIndex();

  /** Checks the header; records are checked as they are read. */
  constructor(readonly bytes: Uint8Array) {
    const r = new ByteReader(bytes);
    ({ flags: this.flags, count: this.count } = readHeader(r));
    this.recordsAt = r.at;
  }

  *[Symbol.iterator](): Iterator<RecordView> {
    const cursor = this.cursor();
    while (cursor.next()) {
      const { index, kind } = cursor;
      yield { index, kind, record: cursor.record(), metadata: cursor.metadata(), event: cursor.event() };
    }
  }

  /** A walk over the records in place (for readers of every record of every batch: no object per record). */
  cursor(): RecordCursor {
    return new RecordCursor(this.bytes, this.recordsAt, this.count);
  }

  /**
   * The value at `path` in an encoded value (a record's `metadata` or `event`), or `undefined` when the path
   * leads nowhere (a missing field or index, or a container of the other kind). Walks containers by their
   * byte lengths and decodes only the value found.
   */
  readPath(value: Uint8Array, path: ValuePath, at = 0): RemapValue | undefined {
    return this.locate(value, path, at)?.value();
  }

  /** Like `readPath`, but the value found stays encoded: a view into `value` (its exact encoding). */
  readPathEncoded(value: Uint8Array, path: ValuePath, at = 0): Uint8Array | undefined {
    const start = this.findEncoded(value, path, at);
    return start < 0 ? undefined : value.subarray(start, this.foundEnd);
  }

  /** Where `findEncoded`'s value ends. */
  foundEnd = 0;

  /**
   * Where the value at `path` starts in `value` (its end in `foundEnd`), or -1 when the path leads nowhere:
   * `readPathEncoded` without a view, for a reader of every record.
   */
  findEncoded(value: Uint8Array, path: ValuePath, at = 0): number {
    const r = this.locate(value, path, at);
    if (r === undefined) return -1;
    const start = r.at;
    r.skip();
    this.foundEnd = r.at;
    return start;
  }

  /**
   * A map key for the values at `paths` of the value at `at` in `value` (a record's event or metadata): the
   * latin1 text of their encodings one after the other, `\xff` (no value's tag) for a missing one. Equal
   * values have equal encodings (object keys are sorted), and each encoding ends itself.
   */
  encodedKey(value: Uint8Array, paths: readonly ValuePath[], at = 0): string {
    let key = '';
    for (const path of paths) {
      const start = this.findEncoded(value, path, at);
      key += start < 0 ? '\xff' : this.latin1(value, start, this.foundEnd);
    }
    return key;
  }

  /** A Buffer over the bytes `latin1` read last (one per batch, not one per key). */
  private text: { of: Uint8Array; buffer: Buffer } | undefined;

  private latin1(bytes: Uint8Array, start: number, end: number): string {
    if (this.text?.of !== bytes)
      this.text = { of: bytes, buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    return this.text.buffer.toString('latin1', start, end);
  }

  /** A reader at the value at `path`, or undefined when the path leads nowhere. A field of the object at
   * `at` is found through `fields`, the rest of the path by walking. */
  private locate(value: Uint8Array, path: ValuePath, at: number): ByteReader | undefined {
    const first = path[0];
    const r = this.pathReader;
    if (typeof first === 'string') {
      const fieldAt = this.fields.find(value, at, this.key(first));
      if (fieldAt < 0) return undefined;
      r.reset(value, fieldAt);
    } else r.reset(value, at);
    for (let i = typeof first === 'string' ? 1 : 0; i < path.length; i++) {
      const segment = path[i]!;
      const found = typeof segment === 'number' ? enterIndex(r, segment) : enterField(r, this.key(segment));
      if (!found) return undefined;
    }
    return r;
  }

  /** Decodes one record (for tests, tap and unit-test output). */
  decodeRecord(view: RecordView): Required<InputEvent> {
    const metadata = new ByteReader(view.metadata).value() as object;
    return { kind: view.kind, metadata, event: new ByteReader(view.event).value() };
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

/**
 * The fields of one encoded object, noted as a walk over them passes them: reads of several fields of one
 * object (a record's timestamp, the fields a transform reads) walk it once, and a read stops where the field
 * is, as `enterField` does (keys are sorted byte-wise). Known by the bytes and offset it is at: what is read
 * is a batch's, which does not change.
 */
class FieldIndex {
  private bytes: Uint8Array = new Uint8Array(0);
  private at = -1;
  /** The object's field count (-1: not an object), how many have been walked, and where the next starts. */
  private count = -1;
  private walked = 0;
  private next = 0;
  /** Per field walked: where its key starts, its key's length, where its value starts. */
  private keyAt = new Int32Array(16);
  private keyLength = new Int32Array(16);
  private valueAt = new Int32Array(16);
  private readonly r = new ByteReader(this.bytes);

  /** Where the value of field `key` of the object at `at` in `bytes` starts; -1 when it has none. */
  find(bytes: Uint8Array, at: number, key: Uint8Array): number {
    if (bytes !== this.bytes || at !== this.at) this.start(bytes, at);
    // Among the fields walked, by bisection; past them, by walking on.
    let low = 0;
    let high = this.walked;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = compareInPlace(bytes, this.keyAt[middle]!, this.keyLength[middle]!, key);
      if (order === 0) return this.valueAt[middle]!;
      if (order < 0) low = middle + 1;
      else high = middle;
    }
    if (low < this.walked) return -1;
    const r = this.r.reset(bytes, this.next);
    while (this.walked < this.count) {
      const length = r.u32();
      const keyAt = r.at;
      const order = compareInPlace(bytes, keyAt, length, key);
      r.at += length;
      const valueAt = r.at;
      r.skip();
      // Noted once walked past whole (a field that cannot be read is not noted).
      const field = this.walked++;
      if (field === this.keyAt.length) this.grow();
      this.keyAt[field] = keyAt;
      this.keyLength[field] = length;
      this.valueAt[field] = valueAt;
      this.next = r.at;
      if (order === 0) return valueAt;
      if (order > 0) return -1;
    }
    return -1;
  }

  private start(bytes: Uint8Array, at: number): void {
    this.bytes = bytes;
    this.at = at;
    this.walked = 0;
    const r = this.r.reset(bytes, at);
    this.count = -1;
    if (r.u8() !== Wire.Object) return;
    this.count = r.u32();
    r.u32(); // byte length
    this.next = r.at;
  }

  private grow(): void {
    for (const name of ['keyAt', 'keyLength', 'valueAt'] as const) {
      const grown = new Int32Array(this[name].length * 2);
      grown.set(this[name]);
      this[name] = grown;
    }
  }
}

/** Walks the records of a batch in place (`BatchReader.cursor`): the current record's kind and where its parts
 * are in `bytes`, views of them made on demand. */
export class RecordCursor implements RecordHead {
  index = -1;
  kind: EventKind = 'log';
  code = 0;
  /** Where the record starts (its u32 length), where its metadata and event start, and where it ends. */
  start = 0;
  metadataAt = 0;
  eventAt = 0;
  end = 0;
  private readonly r: ByteReader;

  constructor(
    readonly bytes: Uint8Array,
    recordsAt: number,
    private readonly count: number,
  ) {
    this.r = new ByteReader(bytes, recordsAt);
  }

  /** Moves to the next record; false after the last (the batch then checked to end there). */
  next(): boolean {
    if (this.index + 1 >= this.count) {
      expectEnd(this.r);
      return false;
    }
    const r = this.r;
    this.index++;
    readRecordHead(r, this.index, this);
    this.metadataAt = r.at;
    r.skip();
    this.eventAt = r.at;
    r.at = this.end;
    return true;
  }

  /** The whole record (u32 length + record, what `BatchWriter.appendRaw` takes). */
  record(): Uint8Array {
    return this.bytes.subarray(this.start, this.end);
  }

  metadata(): Uint8Array {
    return this.bytes.subarray(this.metadataAt, this.eventAt);
  }

  event(): Uint8Array {
    return this.bytes.subarray(this.eventAt, this.end);
  }
}

/** Moves `r` from an array to its item `index`; false when `r` is not at an array or it has no such item. */
export function enterIndex(r: ByteReader, index: number): boolean {
  if (r.u8() !== Wire.Array) return false;
  const count = r.u32();
  r.u32(); // byte length
  const at = index < 0 ? count + index : index;
  if (at < 0 || at >= count) return false;
  for (let i = 0; i < at; i++) r.skip();
  return true;
}

/** Moves `r` from an object to the value of `key`; false when `r` is not at an object or it has no such key. */
export function enterField(r: ByteReader, key: Uint8Array): boolean {
  if (r.u8() !== Wire.Object) return false;
  const count = r.u32();
  r.u32(); // byte length
  for (let i = 0; i < count; i++) {
    const length = r.u32();
    const order = compareInPlace(r.bytes, r.at, length, key);
    r.at += length;
    if (order === 0) return true;
    if (order > 0) return false; // keys are sorted byte-wise
    r.skip();
  }
  return false;
}

/** `bytes[at, at + length)` against `key`, byte-wise: a loop beats a view and `Buffer.compare` on short keys
 * (sources read each event's timestamp this way). */
export function compareInPlace(bytes: Uint8Array, at: number, length: number, key: Uint8Array): number {
  const common = Math.min(length, key.length);
  for (let i = 0; i < common; i++) {
    const difference = bytes[at + i]! - key[i]!;
    if (difference !== 0) return difference;
  }
  return length - key.length;
}

/**
 * A copy of an encoded value with the encoded value `replacement` at the field path `path`, as Vector's
 * insert does it: missing objects on the way are created, and a value on the way that is not an object is
 * replaced by one. Only the objects on the path are rewritten; the rest is copied as bytes.
 */
export function withField(value: Uint8Array, path: readonly string[], replacement: Uint8Array): Uint8Array {
  return editField(value, path, replacement);
}

/** A copy of an encoded value without the field at `path` (the value itself when there is none). */
export function withoutField(value: Uint8Array, path: readonly string[]): Uint8Array {
  return editField(value, path, undefined);
}

/** Sets (`replacement`) or removes (undefined) the field at `path` of an encoded value. */
function editField(value: Uint8Array, path: readonly string[], replacement: Uint8Array | undefined): Uint8Array {
  if (path.length === 0) return replacement ?? value;
  const key = keyBytes(path[0]!);
  const r = new ByteReader(value);
  const isObject = value.length > 0 && r.u8() === Wire.Object;
  if (!isObject && replacement === undefined) return value;
  const count = isObject ? r.u32() : 0;
  if (isObject) r.u32(); // byte length
  const entriesAt = r.at;
  // Find the entry for `key`, or where it goes: keys are sorted byte-wise.
  let insertAt = isObject ? value.length : 0;
  let existing: { start: number; end: number } | undefined;
  for (let i = 0; i < count; i++) {
    const start = r.at;
    const length = r.u32();
    const order = compareInPlace(r.bytes, r.at, length, key);
    r.at += length;
    if (order > 0) {
      insertAt = start;
      break;
    }
    r.skip();
    if (order === 0) {
      existing = { start, end: r.at };
      insertAt = start;
      break;
    }
  }
  if (existing === undefined && replacement === undefined) return value;
  const current = existing ? value.subarray(existing.start + 4 + key.length, existing.end) : EMPTY_OBJECT;
  const child =
    path.length === 1 && replacement === undefined ? undefined : editField(current, path.slice(1), replacement);
  // One exact allocation: this runs per event (sample's rate field, remap's rerouted events).
  const before = isObject ? value.subarray(entriesAt, insertAt) : EMPTY;
  const after = isObject ? value.subarray(existing ? existing.end : insertAt) : EMPTY;
  const entries = before.length + (child === undefined ? 0 : 4 + key.length + child.length) + after.length;
  const out = new Uint8Array(9 + entries);
  const view = new DataView(out.buffer);
  out[0] = Wire.Object;
  view.setUint32(1, count + (existing ? 0 : 1) - (child === undefined ? 1 : 0), true);
  view.setUint32(5, entries, true);
  out.set(before, 9);
  let at = 9 + before.length;
  if (child !== undefined) {
    view.setUint32(at, key.length, true);
    out.set(key, at + 4);
    out.set(child, at + 4 + key.length);
    at += 4 + key.length + child.length;
  }
  out.set(after, at);
  return out;
}

const EMPTY = new Uint8Array(0);

/** A change to a top-level field of an encoded object: its name, and its new encoded value or undefined to
 * remove it. */
export type FieldEdit = readonly [name: string, value: Uint8Array | undefined];

/**
 * Writes the encoded object `value` (a value that is not one counts as `{}`) with `edits`, each to a
 * different top-level field, in one pass and with no copy of its own: `withField` and `withoutField` for a
 * writer's record, as `BatchWriter.appendWriting` takes them.
 */
export function writeEdited(w: ByteWriter, { value, edits }: { value: Uint8Array; edits: readonly FieldEdit[] }): void {
  // The edits by key (a few: sorted in place, without a comparator's calls).
  const keys = editKeys;
  const values = editValues;
  keys.length = 0;
  values.length = 0;
  for (const [name, replacement] of edits) {
    const key = keyBytes(name);
    let at = keys.length;
    while (at > 0 && compareInPlace(key, 0, key.length, keys[at - 1]!) < 0) {
      keys[at] = keys[at - 1]!;
      values[at] = values[at - 1];
      at--;
    }
    keys[at] = key;
    values[at] = replacement;
  }
  const r = editReader.reset(value);
  const count = value.length > 0 && r.u8() === Wire.Object ? r.u32() : 0;
  if (count > 0) r.u32(); // byte length
  const start = w.length;
  w.u8(Wire.Object);
  const countAt = w.reserve(8);
  let written = 0;
  let next = 0;
  for (let i = 0; i <= count; i++) {
    // Entry i (none past the last): the edits before it, then it or the edit that replaces it.
    const entryAt = r.at;
    const length = i < count ? r.u32() : 0;
    const keyAt = r.at;
    let order = 1;
    for (; next < keys.length; next++) {
      if (i < count && (order = compareInPlace(value, keyAt, length, keys[next]!)) <= 0) break;
      if (values[next] === undefined) continue;
      w.sized(keys[next]!);
      w.raw(values[next]!);
      written++;
    }
    if (i === count) break;
    r.at += length;
    r.skip();
    if (order === 0) {
      const replacement = values[next++];
      if (replacement === undefined) continue;
      w.sized(keys[next - 1]!);
      w.raw(replacement);
    } else w.raw(value.subarray(entryAt, r.at));
    written++;
  }
  w.view.setUint32(countAt, written, true);
  w.view.setUint32(countAt + 4, w.length - start - 9, true);
}

const editKeys: Uint8Array[] = [];
const editValues: Array<Uint8Array | undefined> = [];
const editReader = new ByteReader(EMPTY);

/** The UTF-8 of field names `editField` was given (a few, from configurations), made once each. */
const KEY_BYTES = new Map<string, Buffer>();

function keyBytes(name: string): Buffer {
  let bytes = KEY_BYTES.get(name);
  if (bytes === undefined) KEY_BYTES.set(name, (bytes = Buffer.from(name, 'utf8')));
  return bytes;
}

/** The buffer of the last writer finished in this thread, for the next one, up to SPARE_BYTES: grown from
 * 256 bytes for each batch, a writer's buffers (fresh pages, zeroed) cost more than writing the batch. */
let spare: ByteWriter | undefined;
const SPARE_BYTES = 1 << 20;

/** Builds an input batch record by record. */
export class BatchWriter {
  private writer: ByteWriter | undefined;
  private records = 0;

  constructor(flags = 0) {
    this.writer = spare ?? new ByteWriter();
    spare = undefined;
    this.writer.clear();
    writeHeader(this.writer, flags, 0);
  }

  /** Where records go; none once finished (its buffer went to the next writer). */
  private get w(): ByteWriter {
    if (this.writer === undefined) throw new Error('a BatchWriter is not written to once finished');
    return this.writer;
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

  /** Appends an event whose metadata and event are both given as encoded values. */
  appendEncoded(kind: EventKind, metadata: Uint8Array, event: Uint8Array): void {
    this.appendWriting(kind, metadata, (w, bytes) => w.raw(bytes), event);
  }

  /** Appends an event whose metadata is given as an encoded value and whose event `write` encodes in place
   * (from `value`: no closure to make per event). */
  appendWriting<T>(kind: EventKind, metadata: Uint8Array, write: (w: ByteWriter, value: T) => void, value: T): void {
    const lengthAt = startRecord(this.w, kind, 0);
    this.w.raw(metadata);
    write(this.w, value);
    endRecord(this.w, lengthAt);
    this.records++;
  }

  /** The batch: an exact-size copy in an ArrayBuffer of its own (transferable to a worker). Ends the writer. */
  finish(): Uint8Array<ArrayBuffer> {
    const w = this.w;
    writeCount(w, this.records);
    const batch = new Uint8Array(w.finish());
    this.writer = undefined;
    if (w.bytes.length <= SPARE_BYTES) spare = w;
    return batch;
  }
}

export interface BitmapSplit {
  /** The records whose bit is set, in order. */
  matched: Uint8Array<ArrayBuffer>;
  /** The others. */
  unmatched: Uint8Array<ArrayBuffer>;
  matchedCount: number;
  unmatchedCount: number;
}

/** Splits a batch by a condition bitmap (`runCondition`); both parts keep the batch's flags. */
export function splitByBitmap(batch: Uint8Array, bits: Uint8Array): BitmapSplit {
  const ends = recordEnds(batch);
  if (bits.length < (ends.length + 7) >> 3) {
    throw new Error(`a bitmap of ${bits.length} bytes cannot cover a batch of ${ends.length} records`);
  }
  const matched = pickRecords(batch, ends, bits);
  const unmatched = pickRecords(batch, ends, complement(bits));
  return {
    matched: matched.bytes,
    unmatched: unmatched.bytes,
    matchedCount: matched.count,
    unmatchedCount: unmatched.count,
  };
}

/** Where each record of an input batch ends (its lengths checked, not its contents). */
export function recordEnds(batch: Uint8Array): Uint32Array {
  const { count } = readHeader(new ByteReader(batch));
  const view = new DataView(batch.buffer, batch.byteOffset, batch.byteLength);
  const ends = new Uint32Array(count);
  let at = BATCH_HEADER_SIZE;
  for (let index = 0; index < count; index++) {
    const length = batch.length - at < 4 ? -1 : view.getUint32(at, true);
    if (length < 4 || length > batch.length - at - 4) throw new Error(`batch record ${index} is truncated`);
    at += 4 + length;
    ends[index] = at;
  }
  if (at !== batch.length) throw new Error(`batch has ${batch.length - at} bytes past its ${count} records`);
  return ends;
}

/** The records of `batch` (whose `recordEnds` are `ends`) whose bit is set, in order, as a batch of their own
 * with the same flags. Runs of records are copied at once; no record is looked into. */
export function pickRecords(
  batch: Uint8Array,
  ends: Uint32Array,
  bits: Uint8Array,
): { bytes: Uint8Array<ArrayBuffer>; count: number } {
  const isSet = (index: number) => (bits[index >> 3]! >> (index & 7)) & 1;
  const startOf = (index: number) => (index === 0 ? BATCH_HEADER_SIZE : ends[index - 1]!);
  let size = BATCH_HEADER_SIZE;
  let count = 0;
  for (let index = 0; index < ends.length; index++)
    if (isSet(index)) {
      size += ends[index]! - startOf(index);
      count++;
    }
  const bytes = new Uint8Array(size);
  bytes.set(batch.subarray(0, BATCH_HEADER_SIZE));
  new DataView(bytes.buffer).setUint32(BatchHeaderField.Count, count, true);
  let at = BATCH_HEADER_SIZE;
  for (let start = 0; start < ends.length; ) {
    if (!isSet(start)) {
      start++;
      continue;
    }
    let end = start + 1;
    while (end < ends.length && isSet(end)) end++;
    bytes.set(batch.subarray(startOf(start), ends[end - 1]!), at);
    at += ends[end - 1]! - startOf(start);
    start = end;
  }
  return { bytes, count };
}

/** The bitmap with every bit flipped. */
export function complement(bits: Uint8Array): Uint8Array {
  return bits.map((byte) => ~byte & 0xff);
}
