// Program drivers: run the compiled program over a batch of encoded events (docs/abi.md §2, §4) or over
// newline-delimited JSON (§3). The program is the import `svc.program`, which the linker replaces with the
// generated function; it reads and writes the event and metadata through the cells below and returns its
// result, or 0 when the event stopped (outcome Error or Aborted, message pending).

import { bytesEqual } from './codec/scan';
import { Value, Tag, tagOf, newObject, objectSet, arrayLen, arrayGet, share } from './value';
import { Outcome, setOutcome, currentOutcome, errorMessagePtr, errorMessageLen } from './error';
import { Buffer, bufferNew, bufferReserve, bufferByte, bufferBytes, bufferData, bufferLength } from './buffer';
import { decodeValue, decodeCursor, encodeValue, encodedSize } from './codec/binary';
import { parseJson, writeJson } from './codec/json';
import { writeDisplay } from './codec/display';

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

const HEADER_SIZE: usize = 12;
/** The ABI version (docs/abi.md), written into output batch headers. */
const VERSION: u16 = 2;
/** Batch flags (docs/abi.md §2). */
const RESULTS: u16 = 1;
const RAW: u16 = 2;
/** NDJSON flags (docs/abi.md §3). */
const PRINT_OBJECT: i32 = 1;
const JSON_EVENTS: i32 = 2;

const MESSAGE = memory.data<u8>([0x6d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65]);
const MESSAGE_LEN: usize = 7;

/** Puts the event and metadata in the cells and runs the program; returns its result, 0 when it stopped. */
function runEvent(meta: Value, event: Value): Value {
  store<u32>(meta_cell(), meta);
  store<u32>(event_cell(), event);
  setOutcome(Outcome.Kept);
  return program();
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
  const header = bufferReserve(out, HEADER_SIZE);
  memory.copy(header, ptr, 4); // "SVCB"
  store<u16>(header, VERSION, 4);
  store<u16>(header, flags, 6);
  store<u32>(header, count, 8);

  let record = ptr + HEADER_SIZE;
  for (let i: u32 = 0; i < count; i++) {
    const next = record + 4 + <usize>load<u32>(record);
    const kind = load<u8>(record, 4);
    const meta = decodeValue(record + 8);
    const event = decodeValue(decodeCursor());
    const result = runEvent(meta, event);
    const outcome = outcomeOf(result);

    const start = bufferLength(out);
    const head = bufferReserve(out, 8);
    store<u8>(head, kind, 4);
    store<u8>(head, <u8>outcome, 5);
    store<u16>(head, 0, 6);
    if (outcome == Outcome.Kept) {
      if (flags & RAW) {
        store<u32>(bufferReserve(out, 4), 1);
        writeCells(out);
      } else {
        writeEmitted(out, load<u32>(meta_cell()), load<u32>(event_cell()));
      }
      if (flags & RESULTS) writeValue(out, result);
    } else {
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

/** `%` and `.` as they are now. */
function writeCells(out: Buffer): void {
  writeValue(out, load<u32>(meta_cell()));
  writeValue(out, load<u32>(event_cell()));
}

/** The number of events `.` emits: one per array item, otherwise one. */
function emittedCount(target: Value): usize {
  return tagOf(target) == Tag.Array ? arrayLen(target) : 1;
}

/**
 * Calls `write` for each event `target` (`.`) emits (docs/abi.md §4): an object is one event, an array
 * one per item, anything else (and a non-object item) `{ "message": v }`.
 */
function emit(out: Buffer, meta: Value, target: Value, write: (out: Buffer, meta: Value, event: Value) => void): void {
  if (tagOf(target) != Tag.Array) {
    write(out, meta, asEvent(target));
    return;
  }
  for (let i: usize = 0, n = arrayLen(target); i < n; i++) write(out, meta, asEvent(arrayGet(target, i)));
}

/** u32 count, then (metadata, event) per emitted event. */
function writeEmitted(out: Buffer, meta: Value, target: Value): void {
  store<u32>(bufferReserve(out, 4), <u32>emittedCount(target));
  emit(out, meta, target, (out: Buffer, meta: Value, event: Value): void => {
    writeValue(out, meta);
    writeValue(out, event);
  });
}

function asEvent(v: Value): Value {
  if (tagOf(v) == Tag.Object) return v;
  const event = newObject(1);
  objectSet(event, MESSAGE, MESSAGE_LEN, v);
  return event;
}

// ---- newline-delimited JSON ----------------------------------------------------------------------------

/**
 * Runs the program on each JSON line of the UTF-8 text at `ptr` (blank lines skipped; metadata `{}`) and
 * writes one output line per event: the display form of the result, or of `.` with PRINT_OBJECT, or with
 * JSON_EVENTS `.`'s emitted events as JSON lines. Invalid JSON, runtime errors and aborts go to the error
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
    const event = parseJson(start, end - start);
    if (event == 0) {
      writeLineError(errors, line);
      continue;
    }
    const result = runEvent(meta, event);
    if (result == 0) {
      writeLineError(errors, line);
      continue;
    }
    const target: Value = load<u32>(event_cell());
    if (flags & JSON_EVENTS) {
      writeJsonEvents(out, target);
    } else {
      writeDisplay(out, flags & PRINT_OBJECT ? target : result);
      bufferByte(out, 0x0a);
    }
  }
  outputLength = bufferLength(out);
  errorsPtr = bufferData(errors);
  errorsLength = bufferLength(errors);
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
  emit(out, 0, target, (out: Buffer, _meta: Value, event: Value): void => {
    writeJson(out, event);
    bufferByte(out, 0x0a);
  });
}
