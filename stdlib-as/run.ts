// Program drivers: run the compiled program over a batch of encoded events (docs/abi.md §2, §4). The
// program is the import `svc.program`, which the linker replaces with the generated function; it reads
// and writes the event and metadata through the cells below and returns its result, or 0 when the event
// stopped (outcome Error or Aborted, message pending).

import { Value, Tag, tagOf, newObject, objectSet, arrayLen, arrayGet } from './value';
import { Outcome, setOutcome, currentOutcome, errorMessagePtr, errorMessageLen } from './error';
import { Buffer, bufferNew, bufferReserve, bufferBytes, bufferData, bufferLength } from './buffer';
import { decodeValue, decodeCursor, encodeValue, encodedSize } from './codec/binary';

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

export function output_len(): usize {
  return outputLength;
}

const HEADER_SIZE: usize = 12;
const VERSION: u16 = 1;
/** Batch flags (docs/abi.md §2). */
const RESULTS: u16 = 1;
const RAW: u16 = 2;

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
        writeValue(out, load<u32>(meta_cell()));
        writeValue(out, load<u32>(event_cell()));
      } else {
        writeEmitted(out, load<u32>(meta_cell()), load<u32>(event_cell()));
      }
      if (flags & RESULTS) writeValue(out, result);
    } else {
      const messageLen = errorMessageLen();
      store<u32>(bufferReserve(out, 4), <u32>messageLen);
      bufferBytes(out, errorMessagePtr(), messageLen);
      writeValue(out, load<u32>(meta_cell()));
      writeValue(out, load<u32>(event_cell()));
    }
    // The buffer may have moved while growing: address the length through its current data.
    store<u32>(bufferData(out) + start, <u32>(bufferLength(out) - start - 4));
    record = next;
  }
  outputLength = bufferLength(out);
  return bufferData(out);
}

function writeValue(out: Buffer, v: Value): void {
  encodeValue(v, bufferReserve(out, encodedSize(v)));
}

/**
 * The emission rules (docs/abi.md §4): u32 count, then (metadata, event) per event `.` turns into: an
 * object is one event, an array one per item, anything else (and a non-object item) `{ "message": v }`.
 */
function writeEmitted(out: Buffer, meta: Value, target: Value): void {
  if (tagOf(target) != Tag.Array) {
    store<u32>(bufferReserve(out, 4), 1);
    writeValue(out, meta);
    writeValue(out, asEvent(target));
    return;
  }
  const n = arrayLen(target);
  store<u32>(bufferReserve(out, 4), <u32>n);
  for (let i: usize = 0; i < n; i++) {
    writeValue(out, meta);
    writeValue(out, asEvent(arrayGet(target, i)));
  }
}

function asEvent(v: Value): Value {
  if (tagOf(v) == Tag.Object) return v;
  const event = newObject(1);
  objectSet(event, MESSAGE, MESSAGE_LEN, v);
  return event;
}
