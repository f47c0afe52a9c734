// Text helpers of the string functions. VRL reads most string arguments with `try_bytes_utf8_lossy`, so
// they first go through `lossy`; after that the bytes are valid UTF-8 and the decoders below trust them.

import { Value, bytesPtr, bytesLen, newBytes } from '../../value';
import { Buffer, bufferNew, bufferByte, bufferToBytes } from '../../buffer';
import { utf8Sequence, writeLossy } from '../../codec/utf8';
import { whitespaceLength } from '../../text';
import { asciiEnd, bytesEqual } from '../../codec/scan';

/** `v`'s bytes as valid UTF-8: `v` itself when they are, else a copy with U+FFFD for each invalid part. */
export function lossy(v: Value): Value {
  const ptr = bytesPtr(v);
  const end = ptr + bytesLen(v);
  for (let at = asciiEnd(ptr, end); at < end; at = asciiEnd(at, end)) {
    const length = utf8Sequence(at, end);
    if (length < 0) {
      const b = bufferNew(bytesLen(v) + 8);
      writeLossy(b, ptr, bytesLen(v));
      return bufferToBytes(b);
    }
    at += <usize>length;
  }
  return v;
}

/** A byte string sharing `v`'s bytes from `start` to `end`. */
// @ts-ignore: decorator
@inline export function bytesSlice(v: Value, start: usize, end: usize): Value {
  return newBytes(bytesPtr(v) + start, end - start);
}

/** Index of the first `needle` in `hay` at or after `from`, or -1 (an empty needle matches at `from`). */
export function findBytes(hay: usize, hayLen: usize, from: usize, needle: usize, needleLen: usize): isize {
  if (needleLen == 1) return findByte(hay, hayLen, from, load<u8>(needle));
  if (needleLen == 0) return from <= hayLen ? <isize>from : -1;
  if (needleLen > hayLen) return -1;
  const first = load<u8>(needle);
  const last = hayLen - needleLen;
  // The first byte eight at a time (words may reach past the end: READ_SLACK), the rest where it occurs.
  for (let i = from; i <= last; ) {
    const found = bytesEqual(load<u64>(hay + i), first);
    if (found == 0) {
      i += 8;
      continue;
    }
    i += <usize>(ctz(found) >> 3);
    if (i > last) break;
    if (needleLen == 1 || memory.compare(hay + i + 1, needle + 1, needleLen - 1) == 0) return <isize>i;
    i++;
  }
  return -1;
}

/** Index of the first `byte` in `hay` at or after `from`, or -1: eight bytes at a time (READ_SLACK). */
function findByte(hay: usize, hayLen: usize, from: usize, byte: u8): isize {
  for (let i = from; i < hayLen; i += 8) {
    const found = bytesEqual(load<u64>(hay + i), byte);
    if (found != 0) {
      const at = i + <usize>(ctz(found) >> 3);
      return at < hayLen ? <isize>at : -1;
    }
  }
  return -1;
}

/** True when the `needleLen` bytes at `needle` appear at `hay + at` (within `hayLen`). */
// @ts-ignore: decorator
@inline export function bytesAt(hay: usize, hayLen: usize, at: usize, needle: usize, needleLen: usize): bool {
  if (at + needleLen > hayLen) return false;
  // A one-byte needle (most delimiters) without the call.
  return needleLen == 1 ? load<u8>(hay + at) == load<u8>(needle) : memory.compare(hay + at, needle, needleLen) == 0;
}

// ---- code points of valid UTF-8 ------------------------------------------------------------------------

/** Byte length of the UTF-8 sequence whose lead byte is `lead`. */
// @ts-ignore: decorator
@inline export function sequenceLength(lead: u32): usize {
  return lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

/** The code point starting at `at`. */
export function codePointAt(at: usize): u32 {
  const lead = <u32>load<u8>(at);
  if (lead < 0x80) return lead;
  if (lead < 0xe0) return ((lead & 0x1f) << 6) | (<u32>load<u8>(at, 1) & 0x3f);
  if (lead < 0xf0) {
    return ((lead & 0x0f) << 12) | ((<u32>load<u8>(at, 1) & 0x3f) << 6) | (<u32>load<u8>(at, 2) & 0x3f);
  }
  return (
    ((lead & 0x07) << 18) |
    ((<u32>load<u8>(at, 1) & 0x3f) << 12) |
    ((<u32>load<u8>(at, 2) & 0x3f) << 6) |
    (<u32>load<u8>(at, 3) & 0x3f)
  );
}

/** Start of the code point that ends just before `at`. */
export function codePointStartBefore(at: usize): usize {
  do at--;
  while ((load<u8>(at) & 0xc0) == 0x80);
  return at;
}

export function writeCodePoint(b: Buffer, c: u32): void {
  if (c < 0x80) return bufferByte(b, <u8>c);
  if (c < 0x800) {
    bufferByte(b, <u8>(0xc0 | (c >> 6)));
  } else {
    if (c < 0x10000) {
      bufferByte(b, <u8>(0xe0 | (c >> 12)));
    } else {
      bufferByte(b, <u8>(0xf0 | (c >> 18)));
      bufferByte(b, <u8>(0x80 | ((c >> 12) & 0x3f)));
    }
    bufferByte(b, <u8>(0x80 | ((c >> 6) & 0x3f)));
  }
  bufferByte(b, <u8>(0x80 | (c & 0x3f)));
}

/** An ASCII byte that is not whitespace: the common case, which needs no call of `whitespaceLength`. */
// @ts-ignore: decorator
@inline function isAsciiNonSpace(c: u8): bool {
  return c < 0x80 && c != 0x20 && (c < 0x09 || c > 0x0d);
}

/** Start of `str::trim_start` of the valid UTF-8 at [start, end). */
// @ts-ignore: decorator
@inline export function trimStart(start: usize, end: usize): usize {
  // Mostly the text starts with an ASCII non-space: then no call.
  return start < end && isAsciiNonSpace(load<u8>(start)) ? start : trimmedStart(start, end);
}

function trimmedStart(start: usize, end: usize): usize {
  while (start < end) {
    const length = whitespaceLength(start, end);
    if (length == 0) break;
    start += length;
  }
  return start;
}

/** End of `str::trim_end` of the valid UTF-8 at [start, end). */
// @ts-ignore: decorator
@inline export function trimEnd(start: usize, end: usize): usize {
  return end > start && isAsciiNonSpace(load<u8>(end - 1)) ? end : trimmedEnd(start, end);
}

function trimmedEnd(start: usize, end: usize): usize {
  while (end > start) {
    const last = codePointStartBefore(end);
    if (whitespaceLength(last, end) != end - last) break;
    end = last;
  }
  return end;
}

/**
 * Start of the next match of the string `pat` in `text` from `from`, or -1: Rust's `str` matching, where an
 * empty pattern matches at every character boundary (`matchedAtFrom`: it already matched at `from`).
 */
export function nextStringMatch(
  text: usize,
  textLen: usize,
  from: usize,
  pat: usize,
  patLen: usize,
  matchedAtFrom: bool,
): isize {
  if (patLen > 0) return findBytes(text, textLen, from, pat, patLen);
  if (!matchedAtFrom) return <isize>from;
  return from < textLen ? <isize>(from + sequenceLength(<u32>load<u8>(text + from))) : -1;
}
