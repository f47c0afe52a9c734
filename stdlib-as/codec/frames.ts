// Splitting a byte stream into frames (Vector's framing decoders): newline- or character-delimited,
// length-prefixed, syslog octet counting, or the whole input as one frame. Streaming: input after the last
// complete frame is left unconsumed unless the input is final (EOF); a frame over the maximum length is
// discarded, and the discard can continue into the next call (its state goes back to the caller).

import { bytesEqual } from './scan';
import { DecodeDescriptor, DecodeFlag, DecodeMethod, NO_LIMIT } from '../../abi/wire/codec-descriptors';

/** What `frameNext` found. */
export const enum Next {
  /** No complete frame left: `framesConsumed()` bytes are done with. */
  End = 0,
  /** A frame at framePtr/frameLen. */
  Frame = 1,
  /** A frame that could not be used: `frameError()` says why. */
  Error = 2,
}

/** Why a frame failed. */
export const enum FrameError {
  TooLong = 0,
  FrameTooBig = 1,
  Incomplete = 2,
}

let method: DecodeMethod = DecodeMethod.Bytes;
let delimiter: u8 = 0x0a;
let maxLength: u32 = NO_LIMIT;
let flags: u32 = 0;
let lengthFieldLength: u32 = 4;
let lengthFieldOffset: u32 = 0;
/**
 * Discard state: for delimited framings 1 while skipping the rest of an oversized frame up to its delimiter;
 * for length-prefixed framings the bytes of an oversized frame still to skip.
 */
let discard: u32 = 0;
let at: usize = 0;
let stop: usize = 0;
let error: FrameError = FrameError.TooLong;
/**
 * After `Next.End`: the bytes the unconsumed rest must reach before a call can finish its frame (the header's
 * size, or header and body once its length is read); 0 when the frame ends at a delimiter not read yet.
 */
let needed: u64 = 0;

export let framePtr: usize = 0;
export let frameLen: usize = 0;

/**
 * Starts splitting [ptr, ptr + len) with the framing of `descriptor` (u32 words: method, delimiter,
 * max length or 0xffffffff, flags, length field length, length field offset, discard state).
 */
export function framesStart(ptr: usize, len: usize, descriptor: usize): void {
  method = <DecodeMethod>load<u32>(descriptor, DecodeDescriptor.Method);
  delimiter = <u8>load<u32>(descriptor, DecodeDescriptor.Delimiter);
  maxLength = load<u32>(descriptor, DecodeDescriptor.MaxLength);
  flags = load<u32>(descriptor, DecodeDescriptor.Flags);
  lengthFieldLength = load<u32>(descriptor, DecodeDescriptor.LengthFieldLength);
  lengthFieldOffset = load<u32>(descriptor, DecodeDescriptor.LengthFieldOffset);
  discard = load<u32>(descriptor, DecodeDescriptor.Discard);
  at = ptr;
  stop = ptr + len;
  needed = 0;
}

export function framesConsumed(start: usize): usize {
  return at - start;
}
export function framesDiscard(): u32 {
  return discard;
}
export function frameError(): FrameError {
  return error;
}
export function framesNeeded(): u64 {
  return needed;
}

/** No complete frame left: the rest from `at` needs `bytes` (see `needed`). */
function waitFor(bytes: u64): Next {
  needed = bytes;
  return Next.End;
}

export function frameNext(): Next {
  switch (method) {
    case DecodeMethod.Bytes: {
      if (at == stop) return Next.End;
      return frame(at, stop - at, stop);
    }
    case DecodeMethod.LengthDelimited:
      return nextLengthPrefixed();
    case DecodeMethod.OctetCounting:
      return nextOctetCounted();
  }
  return nextDelimited();
}

function frame(ptr: usize, len: usize, next: usize): Next {
  framePtr = ptr;
  frameLen = len;
  at = next;
  return Next.Frame;
}

function fail(why: FrameError, next: usize): Next {
  error = why;
  at = next;
  return Next.Error;
}

/** A frame of `len` bytes at `ptr` checked against the maximum length; `next` is where the next one starts. */
function limited(ptr: usize, len: usize, next: usize): Next {
  if (maxLength == NO_LIMIT || len <= <usize>maxLength) return frame(ptr, len, next);
  return flags & DecodeFlag.TRUNCATE ? frame(ptr, maxLength, next) : fail(FrameError.TooLong, next);
}

/** Address of the first `byte` in [from, stop), or `stop`: eight bytes at a time. */
function find(from: usize, byte: u8): usize {
  while (from + 8 <= stop) {
    const found = bytesEqual(load<u64>(from), byte);
    if (found != 0) return from + <usize>(ctz(found) >> 3);
    from += 8;
  }
  while (from < stop && load<u8>(from) != byte) from++;
  return from;
}

function nextDelimited(): Next {
  while (discard != 0) {
    const end = find(at, delimiter);
    if (end == stop) {
      at = stop;
      return Next.End;
    }
    at = end + 1;
    discard = 0;
  }
  return nextLine();
}

/** One delimited frame from `at` (delimiter `delimiter`). */
function nextLine(): Next {
  if (at == stop) return Next.End;
  const start = at;
  const end = find(start, delimiter);
  if (end < stop) return limited(start, end - start, end + 1);
  if (flags & DecodeFlag.EOF) return limited(start, stop - start, stop);
  // A partial frame already over the limit: drop (or cut) it now and skip its rest in later calls (octet
  // counting keeps its discard state for counted frames, so its fallback lines wait for their end).
  if (method != DecodeMethod.OctetCounting && maxLength != NO_LIMIT && stop - start > <usize>maxLength) {
    discard = 1;
    return limited(start, stop - start, stop);
  }
  return Next.End;
}

/** Skips what is left of an oversized length-prefixed frame; false when the input ends first. */
function skipDiscarded(): bool {
  if (discard == 0) return true;
  const n = <usize>discard < stop - at ? <usize>discard : stop - at;
  at += n;
  discard -= <u32>n;
  return discard == 0;
}

function nextLengthPrefixed(): Next {
  if (!skipDiscarded() || at == stop) return Next.End;
  const header = <usize>(lengthFieldOffset + lengthFieldLength);
  if (stop - at < header) return flags & DecodeFlag.EOF ? fail(FrameError.Incomplete, stop) : waitFor(<u64>header);
  let length: u64 = 0;
  const field = at + <usize>lengthFieldOffset;
  for (let i: usize = 0; i < <usize>lengthFieldLength; i++) {
    const byte = <u64>load<u8>(field + (flags & DecodeFlag.LITTLE_ENDIAN ? <usize>lengthFieldLength - 1 - i : i));
    length = (length << 8) | byte;
  }
  const body = at + header;
  if (maxLength != NO_LIMIT && length > <u64>maxLength) {
    discard = <u32>length;
    at = body;
    skipDiscarded();
    error = FrameError.FrameTooBig;
    return Next.Error;
  }
  if (<u64>(stop - body) < length)
    return flags & DecodeFlag.EOF ? fail(FrameError.Incomplete, stop) : waitFor(<u64>header + length);
  return frame(body, <usize>length, body + <usize>length);
}

/**
 * RFC 6587 octet counting (`LEN SP MSG`); input that does not start with digits and a space is read as a
 * newline-delimited line instead, as Vector's decoder does.
 */
function nextOctetCounted(): Next {
  if (!skipDiscarded() || at == stop) return Next.End;
  let p = at;
  let length: u64 = 0;
  while (p < stop && <u32>load<u8>(p) - 0x30 < 10 && length <= <u64>u32.MAX_VALUE) {
    length = length * 10 + <u64>(load<u8>(p) - 0x30);
    p++;
  }
  if (p == at || length > <u64>u32.MAX_VALUE) return nextLine();
  // More digits may follow: one more byte tells.
  if (p == stop) return flags & DecodeFlag.EOF ? nextLine() : waitFor(<u64>(p - at) + 1);
  if (load<u8>(p) != 0x20) return nextLine();
  const body = p + 1;
  if (maxLength != NO_LIMIT && length > <u64>maxLength) {
    discard = <u32>length;
    at = body;
    skipDiscarded();
    error = FrameError.TooLong;
    return Next.Error;
  }
  if (<u64>(stop - body) < length)
    return flags & DecodeFlag.EOF ? fail(FrameError.Incomplete, stop) : waitFor(<u64>(body - at) + length);
  return frame(body, <usize>length, body + <usize>length);
}
