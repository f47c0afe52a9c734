// The binary value codec of docs/abi.md §1, TS side (the AS side is stdlib-as/codec/binary.ts; both are
// tested against test/vectors/values.json).

import { Regex, Timestamp, TIMESTAMP_RANGE, timestampInRange, type RemapValue } from './values.js';
import { validateRegex } from './regex.js';
import { MAX_VALUE_DEPTH, Wire } from './wire/values.js';
import { isAscii, isUtf8 } from 'node:buffer';

export { Wire };

/**
 * A float whose value may be integral (`42.0`): JS numbers that are integers encode as remap integers, so
 * code that knows a value is a float (compile-time constants) wraps it in this.
 */
export class IntegralFloat {
  constructor(readonly value: number) {}
}

/** Strings up to this length are tried as ASCII first. */
const SHORT_TEXT = 64;

/** A growable byte buffer for encoding. */
export class ByteWriter {
  bytes = Buffer.alloc(256);
  view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  length = 0;

  reserve(n: number): number {
    const at = this.length;
    if (at + n > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(this.bytes.length * 2, at + n));
      grown.set(this.bytes.subarray(0, at));
      this.bytes = grown;
      this.view = new DataView(grown.buffer, grown.byteOffset, grown.byteLength);
    }
    this.length = at + n;
    return at;
  }
  /** Empties the writer to encode something else (what `finish` returned before is overwritten). */
  clear(): void {
    this.length = 0;
  }
  // Each writer reserves before it reads `this.bytes` or `this.view`: reserving may replace them.
  u8(x: number): void {
    const at = this.reserve(1);
    this.bytes[at] = x;
  }
  u16(x: number): void {
    const at = this.reserve(2);
    this.view.setUint16(at, x, true);
  }
  u32(x: number): void {
    const at = this.reserve(4);
    this.view.setUint32(at, x, true);
  }
  i32(x: number): void {
    const at = this.reserve(4);
    this.view.setInt32(at, x, true);
  }
  i64(x: bigint): void {
    const at = this.reserve(8);
    this.view.setBigInt64(at, x, true);
  }
  f64(x: number): void {
    const at = this.reserve(8);
    this.view.setFloat64(at, x, true);
  }
  raw(b: Uint8Array): void {
    const at = this.reserve(b.length);
    this.bytes.set(b, at);
  }
  /** u32 length then the bytes. */
  sized(b: Uint8Array): void {
    this.u32(b.length);
    this.raw(b);
  }
  /** An integer that a JS number holds exactly, as an i64 (no bigint made for it). */
  safeInt(x: number): void {
    const at = this.reserve(9);
    this.bytes[at] = Wire.Int;
    // The low half is the number modulo 2^32 (also for negative numbers), the high half the rest.
    this.view.setUint32(at + 1, x >>> 0, true);
    this.view.setInt32(at + 5, Math.floor(x / 0x1_0000_0000), true);
  }
  /** u32 length then the UTF-8 of `s`, encoded in place. */
  text(s: string): void {
    const at = this.reserve(4 + 3 * s.length);
    const length = s.length <= SHORT_TEXT && this.ascii(s, at + 4) ? s.length : this.bytes.write(s, at + 4, 'utf8');
    this.view.setUint32(at, length, true);
    this.length = at + 4 + length;
  }
  /** The UTF-8 of `s`, without a length. */
  utf8(s: string): void {
    const at = this.reserve(3 * s.length);
    this.length = at + (s.length <= SHORT_TEXT && this.ascii(s, at) ? s.length : this.bytes.write(s, at, 'utf8'));
  }
  /** Copies `s` to `at` when it is ASCII (for short strings, cheaper than a call into the UTF-8 encoder). */
  private ascii(s: string, at: number): boolean {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return false;
      this.bytes[at + i] = c;
    }
    return true;
  }
  finish(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** A JS value that has no remap form, with the path to it (`.a[2]`) in its message. */
export class UnrepresentableValueError extends TypeError {
  /** Path segments from the root to the value, outermost first. */
  readonly segments: (string | number)[] = [];

  constructor(readonly reason: string) {
    super(`${reason} at .`);
    this.name = 'TypeError';
  }

  /** Prepends the segment of the container the failing value sits in. */
  within(segment: string | number): this {
    this.segments.unshift(segment);
    // A path through a deep value is shortened: its start locates it.
    const shown =
      this.segments.length > 12
        ? [...this.segments.slice(0, 12).map(segmentText), '…']
        : this.segments.map(segmentText);
    this.message = `${this.reason} at ${shown.join('')}`;
    return this;
  }
}

/** Timestamps hold chrono's range (VRL's): an instant beyond it is refused, not wrapped. */
function outOfRange(nanos: bigint): UnrepresentableValueError {
  const date = new Date(Number(nanos / 1_000_000n));
  const what = Number.isNaN(date.getTime()) ? `${nanos} ns after the epoch` : date.toISOString();
  return new UnrepresentableValueError(
    `timestamp ${what} is outside the range of remap timestamps (${TIMESTAMP_RANGE})`,
  );
}

function segmentText(segment: string | number): string {
  if (typeof segment === 'number') return `[${segment}]`;
  return /^[A-Za-z0-9_@]+$/.test(segment) ? `.${segment}` : `.${JSON.stringify(segment)}`;
}

/**
 * Appends the encoding of a JS value (integral numbers are integers, as for input events). Throws an
 * UnrepresentableValueError naming the path for what remap cannot hold: integers outside i64, NaN,
 * symbols, functions, cyclic or too deeply nested containers.
 */
export function encodeValue(w: ByteWriter, value: unknown): void {
  encodeNested(w, value, []);
}

/** `encodeValue` below the containers in `ancestors` (outermost first). */
function encodeNested(w: ByteWriter, value: unknown, ancestors: object[]): void {
  // Strings and plain objects first: most of what JS functions return.
  switch (typeof value) {
    case 'string':
      w.u8(Wire.Bytes);
      return w.text(value);
    case 'object':
      if (value === null) return w.u8(Wire.Null);
      break;
    case 'undefined':
      return w.u8(Wire.Null);
    case 'boolean':
      return w.u8(value ? Wire.True : Wire.False);
    case 'bigint':
      if (value < I64_MIN || value > I64_MAX)
        throw new UnrepresentableValueError(`integer ${value} is outside the 64-bit range of remap integers`);
      w.u8(Wire.Int);
      return w.i64(value);
    case 'number':
      if (Number.isSafeInteger(value) && !Object.is(value, -0)) return w.safeInt(value);
      if (Number.isNaN(value)) throw new UnrepresentableValueError('NaN is not a remap value');
      w.u8(Wire.Float);
      return w.f64(value);
    default:
      throw new UnrepresentableValueError(`a ${typeof value} is not a remap value`);
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    if (value instanceof Uint8Array) {
      w.u8(Wire.Bytes);
      return w.sized(value);
    }
    if (value instanceof IntegralFloat) {
      w.u8(Wire.Float);
      return w.f64(value.value);
    }
    if (value instanceof Timestamp) return writeTimestamp(w, value.nanos);
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) throw new UnrepresentableValueError('an invalid Date is not a remap value');
      return encodeNested(w, Timestamp.fromDate(value), ancestors);
    }
    if (value instanceof Regex) {
      // The module compiles a regex it receives and cannot fail there: an invalid pattern stops here.
      const problem = value.program ? undefined : validateRegex(value.pattern);
      if (problem !== undefined)
        throw new UnrepresentableValueError(`an invalid regex is not a remap value (${problem})`);
      w.u8(value.program ? Wire.RegexProgram : Wire.Regex);
      w.text(value.pattern);
      if (value.program) w.sized(value.program);
      return;
    }
  }
  const container = value as object;
  if (ancestors.includes(container)) throw new UnrepresentableValueError('a cyclic value is not a remap value');
  // Deeper values (and cyclic ones) are refused rather than overflowing the stack here or in the module.
  if (ancestors.length === MAX_VALUE_DEPTH) {
    throw new UnrepresentableValueError(`a value nested deeper than ${MAX_VALUE_DEPTH} levels is not a remap value`);
  }
  ancestors.push(container);
  if (Array.isArray(value)) {
    w.u8(Wire.Array);
    w.u32(value.length);
    const sizeAt = w.reserve(4);
    for (let i = 0; i < value.length; i++) encodeChild(w, value[i], ancestors, i);
    ancestors.pop();
    return w.view.setUint32(sizeAt, w.length - sizeAt - 4, true);
  }
  const object = value as Record<string, unknown>;
  w.u8(Wire.Object);
  // The count and size are known once the fields are written (a field holding undefined is left out).
  const countAt = w.reserve(8);
  let count = 0;
  for (const key of sortedKeysOf(object)) {
    const field = object[key];
    if (field === undefined) continue;
    w.text(key);
    encodeChild(w, field, ancestors, key);
    count++;
  }
  ancestors.pop();
  w.view.setUint32(countAt, count, true);
  return w.view.setUint32(countAt + 4, w.length - countAt - 8, true);
}

/** The key lists `sortedKeysOf` sorted lately, by their first key: a function's results share theirs. */
const sortedKeyLists = new Map<string, Array<{ keys: string[]; sorted: string[] }>>();

/** The keys of `object` in the order of their UTF-8 bytes; for keys in the same order as an object's lately,
 * that object's sorted list again. */
function sortedKeysOf(object: Record<string, unknown>): string[] {
  const keys = Object.keys(object);
  if (keys.length === 0) return keys;
  let lists = sortedKeyLists.get(keys[0]!);
  if (lists !== undefined) {
    for (const known of lists) if (sameKeys(known.keys, keys)) return known.sorted;
  } else {
    // Objects keyed by data would make a list each: the lists start again past a bound.
    if (sortedKeyLists.size >= SORTED_KEY_LISTS) sortedKeyLists.clear();
    lists = [];
    sortedKeyLists.set(keys[0]!, lists);
  }
  const sorted = sortedKeys([...keys]);
  if (lists.length === LISTS_PER_FIRST_KEY) lists.shift();
  lists.push({ keys, sorted });
  return sorted;
}

const SORTED_KEY_LISTS = 64;
const LISTS_PER_FIRST_KEY = 4;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The timestamp `writeTimestamp` wrote last, in parts. */
let lastTimestampWritten = { nanos: 0n, seconds: 0n, subsecondNanos: 0 };

/** Appends the encoding of a timestamp given in nanoseconds since the epoch (refused beyond chrono's range). */
export function writeTimestamp(w: ByteWriter, nanos: bigint): void {
  // Timestamps come in runs (the events of a read, the metrics of an event): the last one's parts are kept,
  // as working them out again allocated several bigints per timestamp.
  if (nanos !== lastTimestampWritten.nanos) {
    if (!timestampInRange(nanos)) throw outOfRange(nanos);
    const timestamp = new Timestamp(nanos);
    lastTimestampWritten = { nanos, seconds: timestamp.seconds, subsecondNanos: timestamp.subsecondNanos };
  }
  w.u8(Wire.Timestamp);
  w.i64(lastTimestampWritten.seconds);
  w.u32(lastTimestampWritten.subsecondNanos);
}

/** `encodeNested` of the item or field `segment` of a container: an error's path gets the segment. */
function encodeChild(w: ByteWriter, value: unknown, ancestors: object[], segment: string | number): void {
  try {
    encodeNested(w, value, ancestors);
  } catch (error) {
    throw error instanceof UnrepresentableValueError ? error.within(segment) : error;
  }
}

/**
 * Keys in the order of their UTF-8 bytes. That is the order of JS strings (UTF-16 code units) unless a key
 * holds a code unit from U+D800 up, where surrogate pairs sort below U+E000–U+FFFF in UTF-16 but above
 * them in UTF-8.
 */
export function sortedKeys(keys: string[]): string[] {
  if (!keys.some(fromSurrogates)) return keys.length <= SHORT_SORT ? insertionSort(keys) : keys.sort();
  return keys
    .map((key) => [Buffer.from(key), key] as const)
    .sort(([a], [b]) => Buffer.compare(a, b))
    .map(([, key]) => key);
}

/** Objects of up to this many keys (most: a metric's tags, an event's) sort them in place: `Array.sort` made
 * its work arrays even for two keys. */
const SHORT_SORT = 16;

/** `keys.sort()`, in place. */
function insertionSort(keys: string[]): string[] {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let at = i;
    for (; at > 0 && keys[at - 1]! > key; at--) keys[at] = keys[at - 1]!;
    keys[at] = key;
  }
  return keys;
}

/**
 * The seconds of the timestamp encoded at `at` (its tag), read in place from the i64's two halves: exact for
 * any time a number holds, and no DataView or BigInt per event for the readers of every record.
 */
export function timestampSecondsAt(bytes: Uint8Array, at: number): number {
  return int32At(bytes, at + 5) * 2 ** 32 + (int32At(bytes, at + 1) >>> 0);
}

/** The nanoseconds past the second of the timestamp encoded at `at`. */
export function timestampNanosAt(bytes: Uint8Array, at: number): number {
  return int32At(bytes, at + 9) >>> 0;
}

const int32At = (bytes: Uint8Array, at: number) =>
  bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);

/** `{}`, encoded (shared: never written to). */
export const EMPTY_OBJECT: Uint8Array = new Uint8Array([Wire.Object, 0, 0, 0, 0, 0, 0, 0, 0]);

/** Whether the key holds a code unit from U+D800 up (a loop: a regex test per key cost more than the sort). */
function fromSurrogates(key: string): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) >= 0xd800) return true;
  return false;
}

export function encode(value: unknown): Uint8Array {
  const w = new ByteWriter();
  encodeValue(w, value);
  return w.finish();
}

/** The encoding of the timestamp `ByteReader` read last (12 zero bytes: the epoch), and the timestamp. */
const lastTimestampBytes = new Uint8Array(12);
let lastTimestampRead = new Timestamp(0n);

/** Where `ByteReader` reads floats and 64-bit integers: their 8 bytes copied, then read little-endian. */
const wide = new DataView(new ArrayBuffer(8));
const wideBytes = new Uint8Array(wide.buffer);

/** Reads encoded values from a byte array. Readers are made per record and per field read: one holds no
 * DataView of its own unless asked (`view`), as making one cost more than most reads. */
export class ByteReader {
  private dataView: DataView | undefined;
  constructor(
    public bytes: Uint8Array,
    public at = 0,
  ) {}
  /** Reads `bytes` from `at` on: one reader for value after value, as a reader per value added up. */
  reset(bytes: Uint8Array, at = 0): this {
    this.bytes = bytes;
    this.at = at;
    this.dataView = undefined;
    return this;
  }
  /** A DataView of `bytes`. */
  get view(): DataView {
    this.dataView ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    return this.dataView;
  }
  u8(): number {
    return this.bytes[this.at++]!;
  }
  u16(): number {
    const at = this.within(2);
    return this.bytes[at]! | (this.bytes[at + 1]! << 8);
  }
  u32(): number {
    const at = this.within(4);
    const b = this.bytes;
    return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
  }
  i64(): bigint {
    return this.wide().getBigInt64(0, true);
  }
  f64(): number {
    return this.wide().getFloat64(0, true);
  }
  /** Moves past `n` bytes and returns where they start; throws, as a DataView would, when they are not all
   * there. */
  private within(n: number): number {
    const at = this.at;
    if (at + n > this.bytes.length) throw new RangeError('Offset is outside the bounds of the DataView');
    this.at = at + n;
    return at;
  }
  /** The next 8 bytes, copied where they are read. */
  private wide(): DataView {
    const at = this.within(8);
    for (let i = 0; i < 8; i++) wideBytes[i] = this.bytes[at + i]!;
    return wide;
  }
  /** A timestamp (its i64 seconds and u32 nanoseconds). Timestamps come in runs (the events a source read at
   * once): the last one read is returned again for the same bytes (a Timestamp does not change), sparing its
   * bigints. */
  private timestamp(): Timestamp {
    const at = this.within(12);
    const bytes = this.bytes;
    let same = true;
    for (let i = 0; i < 12 && same; i++) same = bytes[at + i] === lastTimestampBytes[i];
    if (!same) {
      lastTimestampBytes.set(bytes.subarray(at, at + 12));
      this.at = at;
      lastTimestampRead = new Timestamp(this.i64() * 1_000_000_000n + BigInt(this.u32()));
    }
    return lastTimestampRead;
  }
  take(n: number): Uint8Array {
    const b = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }
  /** A u32 length, then that many bytes. */
  sized(): Uint8Array {
    return this.take(this.u32());
  }
  /** Moves past one value without decoding it: containers by their byte length. */
  skip(): void {
    const tag = this.u8();
    switch (tag) {
      case Wire.Null:
      case Wire.False:
      case Wire.True:
        return;
      case Wire.Int:
      case Wire.Float:
        this.at += 8;
        return;
      case Wire.Timestamp:
        this.at += 12;
        return;
      case Wire.Bytes:
      case Wire.Regex:
      case Wire.Array:
      case Wire.Object: {
        if (tag >= Wire.Array) this.at += 4; // the item count
        const length = this.u32();
        this.at += length;
        return;
      }
      case Wire.RegexProgram:
        this.sized();
        this.sized();
        return;
    }
    throw new Error(`bad value tag ${tag} at byte ${this.at - 1}`);
  }
  value(): RemapValue {
    const tag = this.u8();
    switch (tag) {
      case Wire.Null:
        return null;
      case Wire.False:
        return false;
      case Wire.True:
        return true;
      case Wire.Int:
        return this.i64();
      case Wire.Float:
        return this.f64();
      case Wire.Timestamp:
        return this.timestamp();
      case Wire.Bytes: {
        const length = this.u32();
        const ascii =
          length <= SHORT_ASCII && this.at + length <= this.bytes.length
            ? asciiAt(this.bytes, this.at, length)
            : undefined;
        if (ascii === undefined) return bytesToValue(this.take(length));
        this.at += length;
        return ascii;
      }
      case Wire.Regex:
        return new Regex(Buffer.from(this.sized()).toString('utf8'));
      case Wire.RegexProgram:
        return new Regex(Buffer.from(this.sized()).toString('utf8'), this.sized().slice());
      case Wire.Array: {
        const count = this.u32();
        this.at += 4;
        const items: RemapValue[] = new Array(count);
        for (let i = 0; i < count; i++) items[i] = this.value();
        return items;
      }
      case Wire.Object: {
        const count = this.u32();
        this.at += 4;
        const out: Record<string, RemapValue> = {};
        for (let i = 0; i < count; i++) {
          const key = keyText(this.sized());
          // A `__proto__` key is data, not the prototype: defined (slower than an assignment, so only then).
          if (key === '__proto__')
            Object.defineProperty(out, key, {
              value: this.value(),
              enumerable: true,
              writable: true,
              configurable: true,
            });
          else out[key] = this.value();
        }
        return out;
      }
    }
    throw new Error(`bad value tag ${tag} at byte ${this.at - 1}`);
  }
}

/** Strings up to this length are read as ASCII first: for a few bytes, a loop costs a fraction of a call
 * into the UTF-8 decoder. */
const SHORT_ASCII = 12;

/** The short ASCII strings read lately, by a hash of their bytes (one per slot, so a bounded set): a field's
 * values repeat (methods, statuses, hosts), and one read again is the string made before, allocating
 * nothing and with its hash for map lookups already computed. */
const recentStrings = new Array<string>(1024).fill('');

/** The `length` bytes at `at` as text when they are all ASCII; undefined otherwise. */
function asciiAt(bytes: Uint8Array, at: number, length: number): string | undefined {
  let hash = length;
  for (let i = at; i < at + length; i++) {
    const byte = bytes[i]!;
    if (byte >= 0x80) return undefined;
    hash = Math.imul(hash ^ byte, 0x01000193);
  }
  const slot = (hash >>> 22) & (recentStrings.length - 1);
  const recent = recentStrings[slot]!;
  if (recent.length === length && sameAscii(recent, bytes, at)) return recent;
  let text = '';
  for (let i = at; i < at + length; i++) text += String.fromCharCode(bytes[i]!);
  recentStrings[slot] = text;
  return text;
}

/** An object key's text (invalid UTF-8 replaced, as a key is text): short ASCII keys, most of them, from
 * the table of recent strings rather than a call into the UTF-8 decoder. */
export function keyText(bytes: Uint8Array): string {
  const ascii = bytes.length <= SHORT_ASCII ? asciiAt(bytes, 0, bytes.length) : undefined;
  return ascii ?? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

function sameAscii(text: string, bytes: Uint8Array, at: number): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== bytes[at + i]) return false;
  return true;
}

/** A string when the bytes are valid UTF-8, else a copy of the bytes. */
function bytesToValue(bytes: Uint8Array): string | Uint8Array {
  // Node's checks and a Buffer view: a call of TextDecoder costs more than reading a short string.
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(bytes)) return view.toString('latin1');
  // Not UTF-8: a copy (a Buffer's `slice` would be a view of the reader's bytes).
  return isUtf8(bytes) ? view.toString('utf8') : new Uint8Array(bytes);
}

export function decode(bytes: Uint8Array): RemapValue {
  return new ByteReader(bytes).value();
}
