// UTF-8 validation by sequence, for writers that replace invalid bytes with U+FFFD the way Rust's
// `String::from_utf8_lossy` does (one replacement per maximal invalid subpart).

import { Buffer, bufferBytes } from '../buffer';
import { asciiEnd } from './scan';

/**
 * The sequence starting at `at` (before `end`): its length when it is valid UTF-8, otherwise minus the
 * length of the invalid subpart to replace (at least one byte).
 */
export function utf8Sequence(at: usize, end: usize): i32 {
  const lead = <u32>load<u8>(at);
  if (lead < 0x80) return 1;
  let length: i32;
  let low: u32 = 0x80;
  let high: u32 = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;
    else if (lead == 0xed) high = 0x9f; // surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;
    else if (lead == 0xf4) high = 0x8f; // beyond U+10FFFF
  } else return -1;
  for (let i = 1; i < length; i++) {
    if (at + <usize>i >= end) return -i;
    const byte = <u32>load<u8>(at + <usize>i);
    if (byte < low || byte > high) return -i;
    low = 0x80;
    high = 0xbf;
  }
  return length;
}

const REPLACEMENT = memory.data<u8>([0xef, 0xbf, 0xbd]);

/** Appends U+FFFD. */
export function writeReplacement(b: Buffer): void {
  bufferBytes(b, REPLACEMENT, 3);
}

/** Bytes as lossy UTF-8: each invalid subpart becomes U+FFFD. */
export function writeLossy(b: Buffer, ptr: usize, len: usize): void {
  const end = ptr + len;
  let run = ptr;
  for (let at = asciiEnd(ptr, end); at < end; at = asciiEnd(at, end)) {
    const length = utf8Sequence(at, end);
    if (length > 0) {
      at += <usize>length;
      continue;
    }
    bufferBytes(b, run, at - run);
    writeReplacement(b);
    at += <usize>-length;
    run = at;
  }
  bufferBytes(b, run, end - run);
}
