// Unicode case mapping of UTF-8 text, as Rust's `str::to_uppercase`/`to_lowercase` do it: full mappings
// (`ß` → `SS`, `İ` → `i̇`) and the final-sigma rule. The tables are AssemblyScript's (musl's casemap and
// SpecialCasing), read per code point, so nothing is allocated besides the output.

import { casemap, bsearch, SPECIALS_UPPER } from '~lib/util/casemap';
import { isCased, isCaseIgnorable } from '~lib/util/string';
import { Value, bytesPtr, bytesLen, allocBytes } from '../../value';
import { Buffer, bufferNew, bufferToBytes } from '../../buffer';
import { ONES, HIGH_BITS } from '../../codec/scan';
import { lossy, codePointAt, codePointStartBefore, sequenceLength, writeCodePoint } from './text';

/** `v` read as lossy UTF-8, upper-cased, or lower-cased when `upper` is false. */
export function changeCase(v: Value, upper: bool): Value {
  const ptr = bytesPtr(v);
  const len = bytesLen(v);
  const out = allocBytes(len);
  const dst = bytesPtr(out);
  // ASCII fast path, eight bytes at a time: a bit flip per letter. The arena hands out 8-byte aligned blocks
  // in 8-byte steps, so whole-word stores stay inside `out`; bytes read past the end are not looked at.
  const first: u64 = upper ? 0x61 : 0x41;
  for (let i: usize = 0; i < len; i += 8) {
    const left = len - i;
    const keep: u64 = left >= 8 ? u64.MAX_VALUE : ((<u64>1) << ((<u64>left) << 3)) - 1;
    const word = load<u64>(ptr + i) & keep;
    if ((word & HIGH_BITS) != 0) return changeCaseAll(lossy(v), upper);
    // With every byte below 0x80, these sums carry into no other byte: the high bit of a byte of `atLeast`
    // is set from `first` on, that of `beyond` from the byte after the last letter on.
    const atLeast = word + ONES * (0x80 - first);
    const beyond = word + ONES * (0x80 - first - 26);
    store<u64>(dst + i, word ^ ((atLeast & ~beyond & HIGH_BITS) >> 2));
  }
  return out;
}

/** The general path, for valid UTF-8. */
function changeCaseAll(v: Value, upper: bool): Value {
  const ptr = bytesPtr(v);
  const end = ptr + bytesLen(v);
  const b = bufferNew(bytesLen(v) + (bytesLen(v) >> 1));
  for (let at = ptr; at < end; ) {
    const c = codePointAt(at);
    if (upper) writeUpper(b, c);
    else writeLower(b, c, ptr, at, end);
    at += sequenceLength(<u32>load<u8>(at));
  }
  return bufferToBytes(b);
}

function writeUpper(b: Buffer, c: u32): void {
  if (c < 0x80) return writeCodePoint(b, c - 0x61 < 26 ? c ^ 0x20 : c);
  if (c >= 0x20000) return writeCodePoint(b, c);
  // Circled letters ⓐ-ⓩ are missing from the casemap tables.
  if (c - 0x24d0 <= 0x24e9 - 0x24d0) return writeCodePoint(b, c - 26);
  if (c - 0x00df <= 0xfb17 - 0x00df) {
    const specials = changetype<usize>(SPECIALS_UPPER);
    const index = bsearch(c, specials, SPECIALS_UPPER.length);
    if (index >= 0) {
      for (let k = 1; k <= 3; k++) {
        const mapped = <u32>load<u16>(specials + ((<usize>index + k) << 1));
        if (mapped != 0) writeCodePoint(b, mapped);
      }
      return;
    }
  }
  writeCodePoint(b, <u32>(casemap(c, 1) & 0x1fffff));
}

/** `c` starts at `at` in the text [start, end) (the final-sigma rule looks around it). */
function writeLower(b: Buffer, c: u32, start: usize, at: usize, end: usize): void {
  if (c < 0x80) return writeCodePoint(b, c - 0x41 < 26 ? c ^ 0x20 : c);
  if (c >= 0x20000) return writeCodePoint(b, c);
  if (c == 0x0130) {
    writeCodePoint(b, 0x69);
    return writeCodePoint(b, 0x307);
  }
  if (c == 0x03a3) return writeCodePoint(b, isFinalSigma(start, at, end) ? 0x03c2 : 0x03c3);
  if (c - 0x24b6 <= 0x24cf - 0x24b6) return writeCodePoint(b, c + 26);
  writeCodePoint(b, <u32>(casemap(c, 0) & 0x1fffff));
}

/**
 * Unicode's Final_Sigma: a cased letter comes before the sigma and none after it, skipping case-ignorable
 * characters on both sides (the sigma at `at` is 2 bytes).
 */
function isFinalSigma(start: usize, at: usize, end: usize): bool {
  let before = false;
  for (let p = at; p > start; ) {
    p = codePointStartBefore(p);
    const c = codePointAt(p);
    if (isCaseIgnorable(c)) continue;
    before = isCased(c);
    break;
  }
  if (!before) return false;
  for (let p = at + 2; p < end; p += sequenceLength(<u32>load<u8>(p))) {
    const c = codePointAt(p);
    if (!isCaseIgnorable(c)) return !isCased(c);
  }
  return true;
}
