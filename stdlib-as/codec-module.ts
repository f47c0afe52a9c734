// Entry of codec.wasm: the stdlib without a program, for sources' decoders and sinks' encoders
// (docs/abi.md §9). It must not import run.ts, whose `svc.program` import only a linked program provides.

import { bufferData, bufferLength } from './buffer';
import {
  decodeFrames,
  decodedLength,
  decodedCount,
  decodedConsumed,
  decodedDiscard,
  decodedNeeded,
  decodeErrors,
  decodedFrames,
} from './codec/decode';
import { encodeBatch, encodedLength, encodeErrors, encodeOffsets } from './codec/encode';
import { regexSearch, FIRST_SEARCH_BITS } from './regex-vm';

export {
  alloc,
  arenaReset as reset,
  arenaUsed as arena_used,
  arenaSetFloor as arena_set_floor,
  runtime_state,
} from './value';

export function decode(ptr: usize, len: usize, descriptor: usize): usize {
  return decodeFrames(ptr, len, descriptor);
}
export function decode_len(): usize {
  return decodedLength();
}
export function decode_count(): u32 {
  return decodedCount();
}
export function decode_consumed(): usize {
  return decodedConsumed();
}
export function decode_discard(): u32 {
  return decodedDiscard();
}
// An f64: a u64 would reach JS as a BigInt.
export function decode_needed(): f64 {
  return <f64>decodedNeeded();
}
export function decode_frames(): u32 {
  return decodedFrames();
}
export function decode_errors_ptr(): usize {
  return bufferData(decodeErrors());
}
export function decode_errors_len(): usize {
  return bufferLength(decodeErrors());
}

export function encode(ptr: usize, len: usize, descriptor: usize): usize {
  return encodeBatch(ptr, len, descriptor);
}
export function encode_len(): usize {
  return encodedLength();
}
export function encode_errors_ptr(): usize {
  return bufferData(encodeErrors());
}
export function encode_errors_len(): usize {
  return bufferLength(encodeErrors());
}
export function encode_offsets_ptr(): usize {
  return bufferData(encodeOffsets());
}
export function encode_offsets_len(): usize {
  return bufferLength(encodeOffsets());
}

// Every wire constant (abi/wire/) as an exported global, so that a test compares the values asc compiled with
// the TypeScript side's (test/abi/wire.test.ts).
export * from '../abi/wire/access-log';
export * from '../abi/wire/batch';
export * from '../abi/wire/codec-descriptors';
export * from '../abi/wire/kinds';
export * from '../abi/wire/path';
export * from '../abi/wire/regex-program';
export * from '../abi/wire/strftime-program';
export * from '../abi/wire/values';

// The regex VM, for the grok patterns the host matches (runtime/js-functions/support/grok.ts): one search per
// event.
export { slotScratch as regex_slots } from './regex-vm';
export function regex_search(program: usize, text: usize, len: usize, from: usize, slots: usize): bool {
  return regexSearch(program, text, len, from, slots, FIRST_SEARCH_BITS);
}
