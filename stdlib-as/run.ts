// Program drivers: run the compiled program over a batch of encoded events (docs/abi.md §2, §4), in chain
// or condition mode (§2.1, §2.2), or over newline-delimited JSON (§3). The program is the import
// `svc.program`, which the linker replaces with the generated function; it reads and writes the event and
// metadata through the cells below and returns its result, or 0 when the event stopped (outcome Error or
// Aborted, message pending). A metric record runs on its VRL view and emits its native metric (metric.ts).

import { writeBatchHeader } from './batch-layout';
import {
  BATCH_HEADER_SIZE as HEADER_SIZE,
  BatchFlag,
  ChainFlag,
  EventKind,
  NdjsonFlag,
  Outcome,
} from '../abi/wire/batch';
import { bytesEqual } from './codec/scan';
import {
  Value,
  Tag,
  TRUE,
  alloc,
  tagOf,
  newObject,
  objectSet,
  objectFind,
  arrayLen,
  arrayGet,
  share,
  setRunning,
} from './value';
import { setOutcome, currentOutcome, errorMessagePtr, errorMessageLen } from './error';
import {
  Buffer,
  bufferNew,
  bufferReserve,
  bufferByte,
  bufferBytes,
  bufferData,
  bufferLength,
  bufferTruncate,
} from './buffer';
import { decodeValue, decodeCursor, encodeValue, encodedSize } from './codec/binary';
import { parseJsonLine, writeJson } from './codec/json';
import { writeDisplay } from './codec/display';
import { targetOf, producedEvent } from './metric';
import { decodeEach, decodeErrors, stampLate } from './codec/decode';
import { encodeStart, encodeEvent, encodeFinish, encodedLength, encodeErrors } from './codec/encode';
import { takeDepthExceeded, failTooDeep } from './depth';

// @ts-ignore: decorator
@external("svc", "program")
declare function program(): Value;

/** The u32 cells holding `.` and `%`. */
const CELLS = memory.data(8, 4);

export function event_cell(): usize {
  return CELLS;
}
export function meta_cell(): usize {
  return CELLS + 4;
}

/** Byte length of the last output buffer. */
let outputLength: usize = 0;
/** The error buffer of the last `run_ndjson`. */
let errorsPtr: usize = 0;
let errorsLength: usize = 0;

export function output_len(): usize {
  return outputLength;
}
export function errors_ptr(): usize {
  return errorsPtr;
}
export function errors_len(): usize {
  return errorsLength;
}
/** Lines the last `run_ndjson` read, blank ones and a last one without its newline included. */
let ndjsonLines: u32 = 0;

export function ndjson_lines(): u32 {
  return ndjsonLines;
}
/** The failures buffer of the last `run_chain` or `run_condition`. */
let failuresPtr: usize = 0;
let failuresLength: usize = 0;

export function failures_ptr(): usize {
  return failuresPtr;
}
export function failures_len(): usize {
  return failuresLength;
}

const MESSAGE = memory.data<u8>([0x6d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65]);
const MESSAGE_LEN: usize = 7;
const VECTOR = memory.data<u8>([0x76, 0x65, 0x63, 0x74, 0x6f, 0x72]);
const VECTOR_LEN: usize = 6;

/**
 * Puts the event (a metric's view, stdlib-as/metric.ts) and metadata in the cells and runs the program;
 * returns its result, 0 when it stopped.
 */
function runEvent(meta: Value, event: Value, isMetric: bool): Value {
  store<u32>(meta_cell(), meta);
  store<u32>(event_cell(), targetOf(event_cell(), isMetric, event));
  setOutcome(Outcome.Kept);
  // A note left by output written for the previous event belongs to that event.
  takeDepthExceeded();
  const result = program();
  // A walk in the program stopped at MAX_VALUE_DEPTH, so what it returned is not the value's.
  return result != 0 && takeDepthExceeded() ? failTooDeep() : result;
}

/**
 * Whether the output just written for an event met a value nested deeper than MAX_VALUE_DEPTH: then the output
 * from `mark` on is dropped and the event's error (TOO_DEEP) is pending.
 */
function outputTooDeep(out: Buffer, mark: usize): bool {
  if (!takeDepthExceeded()) return false;
  bufferTruncate(out, mark);
  failTooDeep();
  return true;
}

/** Decodes the metadata and event of the input record at `record` and runs the program on them. */
function runRecord(record: usize): Value {
  const meta = decodeValue(record + 8);
  return runEvent(meta, decodeValue(decodeCursor()), load<u8>(record, 4) == <u8>EventKind.Metric);
}

/** The outcome of an event the program returned `result` for. */
function outcomeOf(result: Value): Outcome {
  if (result != 0) return Outcome.Kept;
  return currentOutcome() == Outcome.Aborted ? Outcome.Aborted : Outcome.Error;
}

/**
 * Runs every record of the input batch at `ptr` and writes the output batch to the arena; returns its
 * address (`output_len` gives its length).
 */
export function run_batch(ptr: usize, len: usize): usize {
  const flags = load<u16>(ptr, 6);
  const count = load<u32>(ptr, 8);
  const out = bufferNew(len + (len >> 2));
  writeBatchHeader(bufferReserve(out, HEADER_SIZE), flags, count);

  let record = ptr + HEADER_SIZE;
  for (let i: u32 = 0; i < count; i++) {
    setRunning(i);
    const next = record + 4 + <usize>load<u32>(record);
    const kind = load<u8>(record, 4);
    const result = runRecord(record);
    let outcome = outcomeOf(result);

    const start = bufferLength(out);
    const head = bufferReserve(out, 8);
    store<u8>(head, kind, 4);
    store<u8>(head, <u8>outcome, 5);
    store<u16>(head, 0, 6);
    if (outcome == Outcome.Kept) {
      if (flags & BatchFlag.RAW) {
        store<u32>(bufferReserve(out, 4), 1);
        writeCells(out);
      } else {
        writeEmitted(out, kind, load<u32>(meta_cell()), producedEvent(event_cell()));
      }
      if (flags & BatchFlag.RESULTS) writeValue(out, result);
      if (outputTooDeep(out, start + 8)) {
        outcome = Outcome.Error;
        store<u8>(bufferData(out) + start, <u8>outcome, 5);
      }
    }
    if (outcome != Outcome.Kept) {
      writeMessage(out);
      writeCells(out);
    }
    // The buffer may have moved while growing: address the length through its current data.
    store<u32>(bufferData(out) + start, <u32>(bufferLength(out) - start - 4));
    record = next;
  }
  outputLength = bufferLength(out);
  return bufferData(out);
}

/** The pending error message: u32 length, bytes. */
function writeMessage(out: Buffer): void {
  const len = errorMessageLen();
  store<u32>(bufferReserve(out, 4), <u32>len);
  bufferBytes(out, errorMessagePtr(), len);
}

function writeValue(out: Buffer, v: Value): void {
  encodeValue(v, bufferReserve(out, encodedSize(v)));
}

/** `%` and `.` as they are now (for a metric, the metric as its changes so far left it). */
function writeCells(out: Buffer): void {
  writeValue(out, load<u32>(meta_cell()));
  writeValue(out, producedEvent(event_cell()));
}

/** The number of events `.` emits: one per array item, otherwise one. */
function emittedCount(target: Value): usize {
  return tagOf(target) == Tag.Array ? arrayLen(target) : 1;
}

/**
 * Calls `write` for each event `target` (`.`) emits (docs/abi.md §4): an object is one event, an array
 * one per item, anything else (and a non-object item) `{ "message": v }`, or itself in Vector's log
 * namespace.
 */
function emit(
  out: Buffer,
  kind: u8,
  meta: Value,
  target: Value,
  write: (out: Buffer, kind: u8, meta: Value, event: Value) => void,
): void {
  if (tagOf(target) != Tag.Array) {
    write(out, kind, meta, asEvent(kind, meta, target));
    return;
  }
  for (let i: usize = 0, n = arrayLen(target); i < n; i++)
    write(out, kind, meta, asEvent(kind, meta, arrayGet(target, i)));
}

/** u32 count, then (metadata, event) per emitted event. */
function writeEmitted(out: Buffer, kind: u8, meta: Value, target: Value): void {
  store<u32>(bufferReserve(out, 4), <u32>emittedCount(target));
  emit(out, kind, meta, target, (out: Buffer, _kind: u8, meta: Value, event: Value): void => {
    writeValue(out, meta);
    writeValue(out, event);
  });
}

/** What an emitted value `v` is as an event: a log in Vector's log namespace (its metadata holds `vector`, as
 * Vector's `LogEvent::namespace` tells) is any value; otherwise a non-object is wrapped. */
function asEvent(kind: u8, meta: Value, v: Value): Value {
  if (tagOf(v) == Tag.Object) return v;
  if (kind == <u8>EventKind.Log && meta != 0 && tagOf(meta) == Tag.Object && objectFind(meta, VECTOR, VECTOR_LEN) >= 0)
    return v;
  const event = newObject(1);
  objectSet(event, MESSAGE, MESSAGE_LEN, v);
  return event;
}

// ---- chain and condition modes -------------------------------------------------------------------------

/**
 * Runs every record of the input batch at `ptr` and writes an input batch of the emitted events (docs/abi.md
 * §2.1): the header of the input with the count of the output, then one record per emitted event, with the
 * kind of the record it came from. A record whose program failed goes to the failures buffer, and with
 * KEEP_ON_ERROR / KEEP_ON_ABORT also, unchanged, to the output in its place. Returns the output address
 * (`output_len` bytes; `failures_ptr`, `failures_len` give the failures).
 */
export function run_chain(ptr: usize, len: usize, flags: i32): usize {
  const count = load<u32>(ptr, 8);
  const out = bufferNew(len + (len >> 2));
  memory.copy(bufferReserve(out, HEADER_SIZE), ptr, HEADER_SIZE);
  const failures = bufferNew(64);
  let emitted: usize = 0;
  let record = ptr + HEADER_SIZE;
  for (let i: u32 = 0; i < count; i++) {
    setRunning(i);
    const size: usize = 4 + <usize>load<u32>(record);
    let result = runRecord(record);
    if (result != 0) {
      const target = producedEvent(event_cell());
      const mark = bufferLength(out);
      emit(out, load<u8>(record, 4), load<u32>(meta_cell()), target, writeInputRecord);
      if (outputTooDeep(out, mark)) result = 0;
      else emitted += emittedCount(target);
    }
    if (result == 0) {
      const outcome = outcomeOf(result);
      writeFailure(failures, i, outcome, record, size);
      if (flags & (outcome == Outcome.Error ? ChainFlag.KEEP_ON_ERROR : ChainFlag.KEEP_ON_ABORT)) {
        bufferBytes(out, record, size);
        emitted++;
      }
    }
    record += size;
  }
  store<u32>(bufferData(out), <u32>emitted, 8);
  outputLength = bufferLength(out);
  setFailures(failures);
  return bufferData(out);
}

/**
 * Runs the program (a condition) on every record of the input batch at `ptr` and returns the address of a
 * bitmap of `output_len` = ceil(count / 8) bytes (docs/abi.md §2.2): bit `i` (LSB first in byte `i >> 3`)
 * is set when record `i`'s result is `true`. Errors and aborts leave the bit clear and go to the failures
 * buffer, without the record. `_len` is unused: the batch delimits itself (kept to match the other entries).
 */
export function run_condition(ptr: usize, _len: usize): usize {
  const count = load<u32>(ptr, 8);
  const size = (<usize>count + 7) >> 3;
  const bits = alloc(size);
  memory.fill(bits, 0, size);
  const failures = bufferNew(64);
  let record = ptr + HEADER_SIZE;
  for (let i: u32 = 0; i < count; i++) {
    setRunning(i);
    const result = runRecord(record);
    if (result == TRUE) {
      const byte = bits + (i >> 3);
      store<u8>(byte, load<u8>(byte) | ((<u8>1) << (<u8>(i & 7))));
    } else if (result == 0) {
      writeFailure(failures, i, outcomeOf(result), 0, 0);
    }
    record += 4 + <usize>load<u32>(record);
  }
  outputLength = size;
  setFailures(failures);
  return bits;
}

/** One input record (docs/abi.md §2): u32 length, u8 kind, u8 0, u16 0, metadata, event. */
function writeInputRecord(out: Buffer, kind: u8, meta: Value, event: Value): void {
  const metaSize = encodedSize(meta);
  const eventSize = encodedSize(event);
  const at = bufferReserve(out, 8 + metaSize + eventSize);
  store<u32>(at, <u32>(metaSize + eventSize + 4));
  store<u8>(at, kind, 4);
  store<u8>(at, 0, 5);
  store<u16>(at, 0, 6);
  encodeValue(event, encodeValue(meta, at + 8));
}

/**
 * A failures entry: u32 input index, u8 outcome, u8 0, u16 0, the pending message (u32 length, bytes), then
 * u32 length + the input record verbatim, or u32 0 when `record` is 0 (conditions).
 */
function writeFailure(failures: Buffer, index: u32, outcome: Outcome, record: usize, size: usize): void {
  const head = bufferReserve(failures, 8);
  store<u32>(head, index);
  store<u8>(head, <u8>outcome, 4);
  store<u8>(head, 0, 5);
  store<u16>(head, 0, 6);
  writeMessage(failures);
  if (record == 0) {
    store<u32>(bufferReserve(failures, 4), 0);
  } else {
    bufferBytes(failures, record, size);
  }
}

function setFailures(failures: Buffer): void {
  failuresPtr = bufferData(failures);
  failuresLength = bufferLength(failures);
}

// ---- framed input: decode → program → encode -----------------------------------------------------------

/** `run_framed` flag: failures carry the event as it was decoded (for `reroute_dropped`). */

let framedFlags: i32 = 0;
/** Output: an input batch, or the encoder's bytes when `run_framed` encodes. */
let framedOut: Buffer = 0;
let framedEncodes = false;
let framedFailures: Buffer = 0;
let framedIndex: u32 = 0;
let framedEmitted: u32 = 0;
/** The decoded event as an input record, when a failure needs it. */
let framedOriginal: Buffer = 0;

/**
 * Decodes the framed bytes [ptr, ptr + len) with the codec module's decode descriptor (docs/abi.md §9), runs
 * the program on each event as `run_chain` does (with the metadata the decoder gave it; `flags` as run_chain's, plus FAILED_RECORDS),
 * and writes the emitted events as an input batch or, when `encodeDescriptor` is not 0, encoded and framed
 * with it. One call does what a source's decoder, the transform and a sink's encoder do in three, without
 * the two batches between them. Returns the address of ten u32: output address, length, events out,
 * events decoded, failures address, length, decode errors address, length, encode errors address, length.
 */
export function run_framed(
  ptr: usize,
  len: usize,
  decodeDescriptor: usize,
  encodeDescriptor: usize,
  flags: i32,
): usize {
  framedFlags = flags;
  framedEncodes = encodeDescriptor != 0;
  const sizeHint = len + (len >> 1);
  if (framedEncodes) {
    encodeStart(encodeDescriptor, sizeHint);
  } else {
    framedOut = bufferNew(sizeHint + HEADER_SIZE);
    writeBatchHeader(bufferReserve(framedOut, HEADER_SIZE), 0, 0);
  }
  framedFailures = bufferNew(64);
  framedOriginal = bufferNew(64);
  framedIndex = 0;
  framedEmitted = 0;
  decodeEach(ptr, len, decodeDescriptor, runDecoded, (flags & ChainFlag.LATE_STAMP) != 0);

  const result = alloc(40);
  if (framedEncodes) {
    store<u32>(result, <u32>encodeFinish());
    store<u32>(result, <u32>encodedLength(), 4);
    const encodeFailures = encodeErrors();
    store<u32>(result, <u32>bufferData(encodeFailures), 32);
    store<u32>(result, <u32>bufferLength(encodeFailures), 36);
  } else {
    store<u32>(bufferData(framedOut), framedEmitted, 8);
    store<u32>(result, <u32>bufferData(framedOut));
    store<u32>(result, <u32>bufferLength(framedOut), 4);
    store<u32>(result, 0, 32);
    store<u32>(result, 0, 36);
  }
  store<u32>(result, framedEmitted, 8);
  store<u32>(result, framedIndex, 12);
  store<u32>(result, <u32>bufferData(framedFailures), 16);
  store<u32>(result, <u32>bufferLength(framedFailures), 20);
  const decodeFailures = decodeErrors();
  store<u32>(result, <u32>bufferData(decodeFailures), 24);
  store<u32>(result, <u32>bufferLength(decodeFailures), 28);
  return result;
}

/** One decoded event through the program; what it emits goes to the output. */
function runDecoded(kind: EventKind, meta: Value, event: Value): void {
  // Shared: the program's writes copy, so the event as decoded is still there if it fails.
  const original = share(event);
  setRunning(framedIndex);
  let result = runEvent(meta, event, kind == EventKind.Metric);
  if (framedFlags & ChainFlag.CONDITION) {
    if (result == TRUE) {
      stampLate(kind, original);
      emitOriginal(kind, meta, original);
    } else if (result == 0) writeFailure(framedFailures, framedIndex, outcomeOf(result), 0, 0);
    framedIndex++;
    return;
  }
  if (result != 0) {
    const target = producedEvent(event_cell());
    // The encoder reports its own events too deep to encode (codec/encode.ts).
    const mark = framedEncodes ? 0 : bufferLength(framedOut);
    emit(framedOut, <u8>kind, load<u32>(meta_cell()), target, framedEncodes ? encodeEmitted : writeInputRecord);
    if (!framedEncodes) {
      if (outputTooDeep(framedOut, mark)) result = 0;
      else framedEmitted += <u32>emittedCount(target);
    }
  }
  if (result == 0) {
    const outcome = outcomeOf(result);
    const keep = (framedFlags & (outcome == Outcome.Error ? ChainFlag.KEEP_ON_ERROR : ChainFlag.KEEP_ON_ABORT)) != 0;
    // Kept or rerouted, the event goes out as it was decoded: with the stamp.
    stampLate(kind, original);
    if (framedFlags & ChainFlag.FAILED_RECORDS) {
      bufferTruncate(framedOriginal, 0);
      writeInputRecord(framedOriginal, <u8>kind, meta, original);
      writeFailure(framedFailures, framedIndex, outcome, bufferData(framedOriginal), bufferLength(framedOriginal));
    } else {
      writeFailure(framedFailures, framedIndex, outcome, 0, 0);
    }
    if (keep) emitOriginal(kind, meta, original);
  }
  framedIndex++;
}

/** An event as it was decoded, to the output. */
function emitOriginal(kind: EventKind, meta: Value, original: Value): void {
  if (framedEncodes) {
    encodeEmitted(framedOut, <u8>kind, meta, original);
  } else {
    writeInputRecord(framedOut, <u8>kind, meta, original);
    framedEmitted++;
  }
}

/** An emitted event through the encoder; the events it cannot encode are its errors, not the output's. */
function encodeEmitted(_out: Buffer, kind: u8, _meta: Value, event: Value): void {
  const failed = bufferLength(encodeErrors());
  encodeEvent(framedEmitted, <EventKind>kind, event);
  if (bufferLength(encodeErrors()) == failed) framedEmitted++;
}

// ---- newline-delimited JSON ----------------------------------------------------------------------------

/**
 * Runs the program on each JSON line of the UTF-8 text at `ptr` (blank lines skipped; metadata `{}`) and
 * writes one output line per event: the display form of the result, or of `.` with PRINT_OBJECT, or with
 * JSON `.`'s emitted events as JSON lines. Invalid JSON, runtime errors and aborts go to the error
 * buffer as (u32 line index, u32 length, message). Returns the output address (`output_len` bytes).
 */
export function run_ndjson(ptr: usize, len: usize, flags: i32): usize {
  const out = bufferNew(len + (len >> 2));
  const errors = bufferNew(64);
  // One empty metadata object for every event: shared, so a program that writes `%` copies it first.
  const meta = share(newObject(0));
  const stop = ptr + len;
  let line: u32 = 0;
  for (let at = ptr; at < stop; line++) {
    const end = lineEnd(at, stop);
    const start = at;
    at = end + 1;
    if (isBlank(start, end)) continue;
    setRunning(line);
    const event = parseJsonLine(start, end - start);
    if (event == 0) {
      writeLineError(errors, line);
      continue;
    }
    const result = runEvent(meta, event, false);
    if (result == 0) {
      writeLineError(errors, line);
      continue;
    }
    const target: Value = load<u32>(event_cell());
    const mark = bufferLength(out);
    if (flags & NdjsonFlag.JSON) {
      writeJsonEvents(out, target);
    } else {
      writeDisplay(out, flags & NdjsonFlag.PRINT_OBJECT ? target : result);
      bufferByte(out, 0x0a);
    }
    if (outputTooDeep(out, mark)) writeLineError(errors, line);
  }
  outputLength = bufferLength(out);
  errorsPtr = bufferData(errors);
  errorsLength = bufferLength(errors);
  ndjsonLines = line;
  return bufferData(out);
}

/** Address of the first newline in [at, stop), or `stop`: eight bytes at a time. */
function lineEnd(at: usize, stop: usize): usize {
  while (at + 8 <= stop) {
    const found = bytesEqual(load<u64>(at), 0x0a);
    if (found != 0) return at + <usize>(ctz(found) >> 3);
    at += 8;
  }
  while (at < stop && load<u8>(at) != 0x0a) at++;
  return at;
}

/** Whether [at, end) holds only JSON whitespace. */
function isBlank(at: usize, end: usize): bool {
  for (; at < end; at++) {
    const c = load<u8>(at);
    if (c != 0x20 && c != 0x09 && c != 0x0d) return false;
  }
  return true;
}

function writeLineError(errors: Buffer, line: u32): void {
  store<u32>(bufferReserve(errors, 4), line);
  writeMessage(errors);
}

/** `.`'s emitted events, one JSON line each. */
function writeJsonEvents(out: Buffer, target: Value): void {
  emit(out, 0, 0, target, (out: Buffer, _kind: u8, _meta: Value, event: Value): void => {
    writeJson(out, event);
    bufferByte(out, 0x0a);
  });
}
