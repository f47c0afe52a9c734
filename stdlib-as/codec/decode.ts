// Sources' decoders (Vector's deserializers): frames of bytes → events of an input batch (docs/abi.md §2).
// `bytes` makes `{ <message key>: frame }`, `json` an event per object, `syslog` the fields parse_syslog
// finds, `native_json` `{"log"|"metric"|"trace": {...}}` events of that kind. Every log event then gets the
// source's stamp: each stamp field the event lacks, recursively through nested objects (Vector inserts
// source metadata with `try_insert`). In Vector's log namespace (flag VECTOR_NAMESPACE) the payload is the
// event whatever its type (`bytes` a string, `json` any value) and the stamp is each log event's metadata.

import { writeBatchHeader } from '../batch-layout';
import { BATCH_HEADER_SIZE as HEADER_SIZE, EventKind } from '../../abi/wire/batch';
import {
  Value,
  Tag,
  tagOf,
  alloc,
  newObject,
  newBytes,
  newFloat,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  objectFind,
  objectInsertAt,
  objectGet,
  objectSet,
  arrayLen,
  arrayGet,
  bytesPtr,
  bytesLen,
  intOf,
  share,
  setRunning,
} from '../value';
import { errorMessagePtr, errorMessageLen } from '../error';
import {
  Buffer,
  bufferNew,
  bufferReserve,
  bufferBytes,
  bufferAscii,
  bufferData,
  bufferLength,
  bufferByte,
} from '../buffer';
import { encodeValue, encodedSize, decodeValue } from './binary';
import { parseJsonWith, isValidUtf8 } from './json';
import { utf8Sequence } from './utf8';
import { writeInt } from './number';
import { DecodeDescriptor, DecodeFlag, Decoder } from '../../abi/wire/codec-descriptors';
import { path_set } from '../path';
import { parseRfc3339, parsedTimestamp } from '../time-parse';
import { equalsAscii } from '../text';
import { VALUE_TYPES } from '../metric';
import { fn_parse_syslog } from '../functions/parse_syslog';
import {
  Next,
  FrameError,
  framesStart,
  frameNext,
  frameError,
  framePtr,
  frameLen,
  framesConsumed,
  framesDiscard,
  framesNeeded,
} from './frames';

/** The encoded empty object: every record's metadata. */
const EMPTY_OBJECT_SIZE: usize = 9;

let codec: Decoder = Decoder.Bytes;
let strict = false;
let stamp: Value = 0;
/** With FRAME_STAMPS: the distinct stamps (an array), else 0; each frame's index into them (u32s). */
let frameStamps: Value = 0;
let frameStampIndexes: usize = 0;
let frameStampCount: u32 = 0;
/** Log events are delivered without the stamp, which `stampLate` adds to those that need it (run.ts). */
let lateStamp = false;
let vectorNamespace = false;
let syslogMetadata = false;
/** A log event's metadata: the stamp in Vector's namespace, else `{}`; shared (a program writing `%` copies). */
let logMetadata: Value = 0;
/** Every other record's metadata. */
let emptyMetadata: Value = 0;
let messagePath: usize = 0;
let hostnamePath: usize = 0;
let out: Buffer = 0;
let deliver: EventSink = writeRecord;
let errors: Buffer = 0;
let count: u32 = 0;
let frameIndex: u32 = 0;
/** Frames outside [firstFrame, endFrame) are split off but neither decoded nor reported. */
let firstFrame: u32 = 0;
let endFrame: u32 = 0;

let outputLength: usize = 0;
let consumed: usize = 0;
let discardState: u32 = 0;
let needed: u64 = 0;

export function decodedLength(): usize {
  return outputLength;
}
export function decodedCount(): u32 {
  return count;
}
export function decodedConsumed(): usize {
  return consumed;
}
export function decodedDiscard(): u32 {
  return discardState;
}
/** Bytes the unconsumed rest must reach before its frame is complete; 0: it ends at a delimiter. */
export function decodedNeeded(): u64 {
  return needed;
}
export function decodeErrors(): Buffer {
  return errors;
}
/** Frames the input split into, in the range or not. */
export function decodedFrames(): u32 {
  return frameIndex;
}

/**
 * Decodes the framed input [ptr, ptr + len) with the descriptor at `descriptor` (docs/abi.md §9) into an
 * input batch; returns its address.
 */
export function decodeFrames(ptr: usize, len: usize, descriptor: usize): usize {
  out = bufferNew(len + (len >> 1) + HEADER_SIZE);
  writeBatchHeader(bufferReserve(out, HEADER_SIZE), 0, 0);
  decodeEach(ptr, len, descriptor, writeRecord);
  store<u32>(bufferData(out), count, 8);
  outputLength = bufferLength(out);
  return bufferData(out);
}

/** What receives each decoded (and stamped) event, with its metadata (shared: written only after a copy). */
export type EventSink = (kind: EventKind, metadata: Value, event: Value) => void;

/**
 * Decodes the framed input [ptr, ptr + len) with the descriptor at `descriptor` and hands each event to
 * `sink`: the input batch (`decodeFrames`), or a driver that runs a program on it (run.ts `run_framed`).
 * `late`: log events come without the stamp (`stampLate`).
 */
export function decodeEach(ptr: usize, len: usize, descriptor: usize, sink: EventSink, late: bool = false): void {
  lateStamp = late;
  framesStart(ptr, len, descriptor);
  const flags = load<u32>(descriptor, DecodeDescriptor.Flags);
  codec = <Decoder>load<u32>(descriptor, DecodeDescriptor.Decoder);
  strict = (flags & DecodeFlag.STRICT_UTF8) != 0;
  const stampAt = <usize>load<u32>(descriptor, DecodeDescriptor.Stamp);
  const decodedStamp = stampAt != 0 ? decodeValue(stampAt) : 0;
  frameStamps = 0;
  const framed = (flags & DecodeFlag.FRAME_STAMPS) != 0;
  if (framed && decodedStamp != 0 && tagOf(decodedStamp) == Tag.Array && arrayLen(decodedStamp) == 2) {
    const stamps = arrayGet(decodedStamp, 0);
    const indexes = arrayGet(decodedStamp, 1);
    if (tagOf(stamps) == Tag.Array && tagOf(indexes) == Tag.Bytes) {
      frameStamps = stamps;
      frameStampIndexes = bytesPtr(indexes);
      frameStampCount = <u32>(bytesLen(indexes) >> 2);
    }
  }
  vectorNamespace = (flags & DecodeFlag.VECTOR_NAMESPACE) != 0;
  syslogMetadata = vectorNamespace && (flags & DecodeFlag.SYSLOG_METADATA) != 0;
  emptyMetadata = share(newObject(0));
  useStamp(framed ? 0 : decodedStamp);
  messagePath = <usize>load<u32>(descriptor, DecodeDescriptor.MessagePath);
  hostnamePath = <usize>load<u32>(descriptor, DecodeDescriptor.HostnamePath);
  firstFrame = load<u32>(descriptor, DecodeDescriptor.FirstFrame);
  endFrame = load<u32>(descriptor, DecodeDescriptor.EndFrame);
  deliver = sink;
  errors = bufferNew(16);
  count = 0;
  frameIndex = 0;
  for (let next = frameNext(); next != Next.End; next = frameNext(), frameIndex++) {
    if (frameIndex < firstFrame || frameIndex >= endFrame) continue;
    // Relative to the range: the host re-runs ranges of frames around one that trapped.
    setRunning(frameIndex - firstFrame);
    if (frameStamps != 0) useStamp(frameStamp(frameIndex));
    if (next == Next.Frame) decodeFrame(framePtr, frameLen);
    else failFrame(frameError());
  }
  consumed = framesConsumed(ptr);
  discardState = framesDiscard();
  needed = framesNeeded();
}

/** Frame `index`'s own stamp; 0 when it has none (not an object). */
function frameStamp(index: u32): Value {
  if (index >= frameStampCount) return 0;
  const at = <usize>load<u32>(frameStampIndexes + ((<usize>index) << 2));
  if (at >= arrayLen(frameStamps)) return 0;
  const item = arrayGet(frameStamps, at);
  return tagOf(item) == Tag.Object ? item : 0;
}

/** The stamp of the events decoded next (0: none). */
function useStamp(next: Value): void {
  stamp = next;
  logMetadata = vectorNamespace && stamp != 0 ? share(stamp) : emptyMetadata;
}

function decodeFrame(ptr: usize, len: usize): void {
  switch (codec) {
    case Decoder.Bytes: {
      const message = newBytes(ptr, len);
      writeLog(vectorNamespace ? message : messageEvent(message));
      return;
    }
    case Decoder.Json:
      return decodeJson(ptr, len);
    case Decoder.Syslog:
      return decodeSyslog(ptr, len);
    case Decoder.NativeJson:
      return decodeNativeJson(ptr, len);
  }
}

/** An event holding `message` at the message path. */
function messageEvent(message: Value): Value {
  const cell = alloc(4);
  store<u32>(cell, <u32>newObject(4));
  path_set(cell, messagePath, message);
  return load<u32>(cell);
}

// ---- JSON -----------------------------------------------------------------------------------------------

/** The frame as JSON, or 0 with the error written; empty frames (blank NDJSON lines) are skipped. */
function parseFrame(ptr: usize, len: usize): Value {
  if (len == 0) return 0;
  const v = parseJsonWith(ptr, len, 0, !strict);
  if (v == 0) writeJsonError();
  return v;
}

function decodeJson(ptr: usize, len: usize): void {
  const v = parseFrame(ptr, len);
  if (v == 0) return;
  if (!vectorNamespace && !allObjects(v)) return writeError('Attempted to convert non-Object JSON into a LogEvent.');
  forEachItem(v, EventKind.Log);
}

/** Whether `v` is an object or an array of objects (Vector rejects the whole frame otherwise). */
function allObjects(v: Value): bool {
  if (tagOf(v) == Tag.Object) return true;
  if (tagOf(v) != Tag.Array) return false;
  for (let i: usize = 0, n = arrayLen(v); i < n; i++) if (tagOf(arrayGet(v, i)) != Tag.Object) return false;
  return true;
}

function forEachItem(v: Value, kind: EventKind): void {
  if (tagOf(v) != Tag.Array) return writeEvent(kind, v);
  for (let i: usize = 0, n = arrayLen(v); i < n; i++) writeEvent(kind, arrayGet(v, i));
}

/**
 * serde_json's error in Vector's words: `Error parsing JSON: Error("expected value", line: 1, column: 1)`
 * (Debug form), from the parser's `expected value at line 1 column 1`.
 */
function writeJsonError(): void {
  const message = errorMessagePtr();
  const length = errorMessageLen();
  const at = lastIndexOfAtLine(message, length);
  startError();
  bufferAscii(errors, 'Error parsing JSON: Error("');
  bufferBytes(errors, message, at);
  bufferAscii(errors, '", line: ');
  const position = at + 9; // after " at line "
  let p = position;
  while (load<u8>(message + p) != 0x20) p++;
  bufferBytes(errors, message + position, p - position);
  bufferAscii(errors, ', column: ');
  p += 8; // " column "
  bufferBytes(errors, message + p, length - p);
  bufferByte(errors, 0x29);
  endError();
}

/** Offset of the last ` at line ` in the message (the parser always ends its messages with it). */
function lastIndexOfAtLine(message: usize, length: usize): usize {
  for (let i = length - 9; i > 0; i--) {
    if (equalsAscii(message + i, 9, ' at line ')) return i;
  }
  return 0;
}

// ---- syslog ---------------------------------------------------------------------------------------------

function decodeSyslog(ptr: usize, len: usize): void {
  if (strict && !isValidUtf8(ptr, len)) return writeUtf8Error(ptr, len);
  const v = fn_parse_syslog(newBytes(ptr, len));
  if (v == 0) return writePendingError();
  if (syslogMetadata) return writeSyslogSourceEvent(v);
  if (hostnamePath != 0) {
    // Set before the stamp, which fills only what the event lacks: the peer is the host without a hostname.
    const hostname = field(v, 'hostname');
    if (hostname != 0) {
      const cell = alloc(4);
      store<u32>(cell, <u32>v);
      path_set(cell, hostnamePath, share(hostname));
    }
  }
  writeLog(v);
}

/**
 * The syslog source's event in Vector's namespace: the message, with the other fields in the metadata's
 * `syslog` object beside the stamp's, structured data elements (the object fields) under `structured_data`.
 */
function writeSyslogSourceEvent(parsed: Value): void {
  const fields = newObject(objectLen(parsed) + 2);
  const elements = newObject(4);
  let message: Value = 0;
  for (let i: usize = 0, n = objectLen(parsed); i < n; i++) {
    const key = objectKeyPtr(parsed, i);
    const keyLen = objectKeyLen(parsed, i);
    const value = objectValue(parsed, i);
    if (tagOf(value) == Tag.Object) objectSet(elements, key, keyLen, value);
    else if (equalsAscii(key, keyLen, 'message')) message = value;
    else objectSet(fields, key, keyLen, value);
  }
  setField(fields, 'structured_data', elements);
  const metadata = newObject(stamp != 0 ? objectLen(stamp) + 1 : 1);
  if (stamp != 0) {
    for (let i: usize = 0, n = objectLen(stamp); i < n; i++) {
      const key = objectKeyPtr(stamp, i);
      const keyLen = objectKeyLen(stamp, i);
      const value = objectValue(stamp, i);
      // The source's own fields (peer address, host) are set after the parsed ones, as Vector sets them.
      if (equalsAscii(key, keyLen, 'syslog') && tagOf(value) == Tag.Object) {
        for (let j: usize = 0, m = objectLen(value); j < m; j++)
          objectSet(fields, objectKeyPtr(value, j), objectKeyLen(value, j), share(objectValue(value, j)));
      } else {
        objectSet(metadata, key, keyLen, share(value));
      }
    }
  }
  setField(metadata, 'syslog', fields);
  deliver(EventKind.Log, share(metadata), message);
  count++;
}

/** Rust's `Utf8Error` text for the first invalid sequence. */
function writeUtf8Error(ptr: usize, len: usize): void {
  const end = ptr + len;
  let at = ptr;
  let length = 1;
  while (at < end) {
    length = utf8Sequence(at, end);
    if (length < 0) break;
    at += <usize>length;
  }
  startError();
  if (at - <usize>length >= end) {
    bufferAscii(errors, 'incomplete utf-8 byte sequence from index ');
  } else {
    bufferAscii(errors, 'invalid utf-8 sequence of ');
    writeInt(errors, <i64>-length);
    bufferAscii(errors, ' bytes from index ');
  }
  writeInt(errors, <i64>(at - ptr));
  endError();
}

// ---- native JSON ----------------------------------------------------------------------------------------

function decodeNativeJson(ptr: usize, len: usize): void {
  const v = parseFrame(ptr, len);
  if (v == 0) return;
  // Check every item before writing any: Vector rejects the whole frame.
  const n = tagOf(v) == Tag.Array ? arrayLen(v) : 1;
  const events = alloc(n << 3);
  for (let i: usize = 0; i < n; i++) {
    const item = tagOf(v) == Tag.Array ? arrayGet(v, i) : v;
    const kind = nativeKind(item);
    if (kind < 0) return;
    const event = objectValue(item, 0);
    if (kind == EventKind.Metric && !checkMetric(event)) return;
    store<u32>(events + (i << 3), <u32>kind);
    store<u32>(events + (i << 3), <u32>event, 4);
  }
  for (let i: usize = 0; i < n; i++)
    writeEvent(<EventKind>load<u32>(events + (i << 3)), load<u32>(events + (i << 3), 4));
}

/** The kind of a native event `{"log"|"metric"|"trace": {...}}`, or -1 with the error written. */
function nativeKind(item: Value): i32 {
  if (tagOf(item) != Tag.Object || objectLen(item) != 1 || tagOf(objectValue(item, 0)) != Tag.Object) {
    nativeError('an event is an object with one key, "log", "metric" or "trace", holding an object');
    return -1;
  }
  const key = objectKeyPtr(item, 0);
  const keyLen = objectKeyLen(item, 0);
  if (equalsAscii(key, keyLen, 'log')) return EventKind.Log;
  if (equalsAscii(key, keyLen, 'metric')) return EventKind.Metric;
  if (equalsAscii(key, keyLen, 'trace')) return EventKind.Trace;
  startError();
  bufferAscii(errors, 'Error parsing native JSON: unknown event type "');
  bufferBytes(errors, key, keyLen);
  bufferAscii(errors, '", expected "log", "metric" or "trace"');
  endError();
  return -1;
}

/**
 * Checks a metric (`name`, `kind` absolute or incremental, one value type) and gives it Vector's types: the
 * timestamp as a timestamp, counter and gauge values as floats. False with the error written.
 */
function checkMetric(metric: Value): bool {
  const name = field(metric, 'name');
  if (name == 0 || tagOf(name) != Tag.Bytes) return nativeError('a metric needs a string "name"');
  const kind = field(metric, 'kind');
  if (
    kind == 0 ||
    tagOf(kind) != Tag.Bytes ||
    !(
      equalsAscii(bytesPtr(kind), bytesLen(kind), 'absolute') ||
      equalsAscii(bytesPtr(kind), bytesLen(kind), 'incremental')
    )
  ) {
    return nativeError('a metric needs a "kind", "absolute" or "incremental"');
  }
  let valueType = -1;
  for (let i = 0; i < VALUE_TYPES.length; i++) {
    if (field(metric, VALUE_TYPES[i]) == 0) continue;
    if (valueType >= 0) return nativeError('a metric has exactly one value type');
    valueType = i;
  }
  if (valueType < 0) {
    return nativeError(
      'a metric needs a value: counter, gauge, set, distribution, aggregated_histogram, aggregated_summary or sketch',
    );
  }
  if (valueType <= 1) {
    const holder = field(metric, VALUE_TYPES[valueType]);
    const value = tagOf(holder) == Tag.Object ? field(holder, 'value') : 0;
    if (value == 0 || (tagOf(value) != Tag.Int && tagOf(value) != Tag.Float)) {
      return nativeError('a counter or gauge needs a numeric "value"');
    }
    if (tagOf(value) == Tag.Int) setField(holder, 'value', newFloat(<f64>intOf(value)));
  }
  const timestamp = field(metric, 'timestamp');
  if (timestamp != 0 && tagOf(timestamp) == Tag.Bytes) {
    if (!parseRfc3339(bytesPtr(timestamp), bytesPtr(timestamp) + bytesLen(timestamp))) {
      return nativeError('a metric "timestamp" is RFC 3339 text');
    }
    setField(metric, 'timestamp', parsedTimestamp());
  }
  return true;
}

function nativeError(text: string): bool {
  startError();
  bufferAscii(errors, 'Error parsing native JSON: ');
  bufferAscii(errors, text);
  endError();
  return false;
}

/** The value of the ASCII key `key` in object `o`, or 0. */
function field(o: Value, key: string): Value {
  const k = asciiKey(key);
  return objectGet(o, bytesPtr(k), bytesLen(k));
}

function setField(o: Value, key: string, v: Value): void {
  const k = asciiKey(key);
  objectSet(o, bytesPtr(k), bytesLen(k), v);
}

/** An ASCII string literal as a byte string in the arena. */
function asciiKey(text: string): Value {
  const b = bufferNew(<usize>text.length);
  bufferAscii(b, text);
  return newBytes(bufferData(b), bufferLength(b));
}

// ---- output ---------------------------------------------------------------------------------------------

function writeLog(event: Value): void {
  writeEvent(EventKind.Log, event);
}

function writeEvent(kind: EventKind, event: Value): void {
  if (kind != EventKind.Log) deliver(kind, emptyMetadata, event);
  else if (vectorNamespace) deliver(kind, logMetadata, event);
  else {
    if (stamp != 0 && !lateStamp) stampInto(event, stamp);
    deliver(kind, emptyMetadata, event);
  }
  count++;
}

/** Adds the stamp to a log event `decodeEach` delivered without it (the stamp of the input it decodes). */
export function stampLate(kind: EventKind, event: Value): void {
  if (lateStamp && kind == EventKind.Log && stamp != 0 && !vectorNamespace && tagOf(event) == Tag.Object) {
    stampInto(event, stamp);
  }
}

/** The event as a record of the input batch. */
function writeRecord(kind: EventKind, metadata: Value, event: Value): void {
  const size: usize = encodedSize(event);
  const empty = objectLen(metadata) == 0;
  const metadataSize = empty ? EMPTY_OBJECT_SIZE : encodedSize(metadata);
  const length: usize = metadataSize + size + 4;
  const record = bufferReserve(out, length + 4);
  store<u32>(record, <u32>length);
  store<u32>(record, <u32>kind, 4);
  if (empty) {
    store<u8>(record + 8, 9); // object tag (docs/abi.md §1), no entries
    store<u64>(record + 9, 0);
  } else {
    encodeValue(metadata, record + 8);
  }
  encodeValue(event, record + 8 + metadataSize);
}

/** Inserts each field of `from` that `into` lacks; both are objects, `into` owned by the decoder. */
function stampInto(into: Value, from: Value): void {
  for (let i: usize = 0, n = objectLen(from); i < n; i++) {
    const key = objectKeyPtr(from, i);
    const keyLen = objectKeyLen(from, i);
    const value = objectValue(from, i);
    const at = objectFind(into, key, keyLen);
    if (at < 0) {
      objectInsertAt(into, <usize>(-at - 1), key, keyLen, share(value));
      continue;
    }
    const present = objectValue(into, at);
    if (tagOf(value) == Tag.Object && tagOf(present) == Tag.Object) stampInto(present, value);
  }
}

// ---- errors: u32 frame index, u32 length, message -------------------------------------------------------

let errorStart: usize = 0;

function startError(): void {
  const head = bufferReserve(errors, 8);
  store<u32>(head, frameIndex);
  errorStart = bufferLength(errors);
}

function endError(): void {
  store<u32>(bufferData(errors) + errorStart - 4, <u32>(bufferLength(errors) - errorStart));
}

function writeError(text: string): void {
  startError();
  bufferAscii(errors, text);
  endError();
}

function writePendingError(): void {
  startError();
  bufferBytes(errors, errorMessagePtr(), errorMessageLen());
  endError();
}

function failFrame(why: FrameError): void {
  switch (why) {
    case FrameError.TooLong:
      return writeError('frame is longer than max_length: discarded');
    case FrameError.FrameTooBig:
      return writeError('frame size too big');
  }
  writeError('bytes remaining on stream');
}
