// Character classes of UTF-8 text, ASCII comparisons, and strings quoted the way Rust's Debug formatting
// quotes them.

import { Buffer, bufferByte, bufferBytes, bufferAscii } from './buffer';
import { utf8Sequence, writeReplacement } from './codec/utf8';

/**
 * Byte length of the character at `at` (before `end`) when it is Unicode White_Space (Rust's
 * `char::is_whitespace`), else 0.
 */
export function whitespaceLength(at: usize, end: usize): usize {
  const lead = <u32>load<u8>(at);
  if (lead == 0x20 || (lead >= 0x09 && lead <= 0x0d)) return 1;
  if (lead < 0xc2 || lead > 0xe3 || at + 1 >= end) return 0;
  const second = <u32>load<u8>(at + 1);
  if (lead == 0xc2) return second == 0x85 || second == 0xa0 ? 2 : 0; // U+0085, U+00A0
  if (at + 2 >= end) return 0;
  const third = <u32>load<u8>(at + 2);
  switch ((lead << 8) | second) {
    case 0xe19a:
      return third == 0x80 ? 3 : 0; // U+1680
    case 0xe280: // U+2000–U+200A, U+2028, U+2029, U+202F
      return (third >= 0x80 && third <= 0x8a) || third == 0xa8 || third == 0xa9 || third == 0xaf ? 3 : 0;
    case 0xe281:
      return third == 0x9f ? 3 : 0; // U+205F
    case 0xe380:
      return third == 0x80 ? 3 : 0; // U+3000
  }
  return 0;
}

/**
 * Code point ranges (inclusive pairs, sorted) that Rust's `str` Debug escapes as `\u{…}` beyond the C0/C1
 * controls: the main non-printable separators, format characters, combining marks (grapheme extenders),
 * private use areas and non-characters. Rust's full tables also cover unassigned code points; these do not.
 */
const DEBUG_ESCAPED: StaticArray<u32> = [
  0x00a0, 0x00a0, 0x00ad, 0x00ad, 0x0300, 0x036f, 0x0483, 0x0489, 0x0591, 0x05bd, 0x05bf, 0x05bf, 0x05c1, 0x05c2,
  0x05c4, 0x05c5, 0x05c7, 0x05c7, 0x0600, 0x0605, 0x0610, 0x061a, 0x061c, 0x061c, 0x064b, 0x065f, 0x0670, 0x0670,
  0x06d6, 0x06dd, 0x06df, 0x06e4, 0x06e7, 0x06e8, 0x06ea, 0x06ed, 0x070f, 0x070f, 0x1680, 0x1680, 0x180b, 0x180f,
  0x1ab0, 0x1aff, 0x1dc0, 0x1dff, 0x2000, 0x200f, 0x2028, 0x202f, 0x205f, 0x2064, 0x2066, 0x206f, 0x20d0, 0x20ff,
  0x3000, 0x3000, 0x302a, 0x302f, 0x3099, 0x309a, 0xd800, 0xf8ff, 0xfe00, 0xfe0f, 0xfe20, 0xfe2f, 0xfeff, 0xfeff,
  0xfff9, 0xfffb, 0xfffe, 0xffff, 0xe0000, 0xe0fff, 0xf0000, 0x10ffff,
];

function debugEscaped(c: u32): bool {
  if (c < 0x20 || (c >= 0x7f && c < 0xa0)) return true;
  if (c < 0xa0) return false;
  for (let i = 0, n = DEBUG_ESCAPED.length; i < n; i += 2) {
    if (c < unchecked(DEBUG_ESCAPED[i])) return false;
    if (c <= unchecked(DEBUG_ESCAPED[i + 1])) return true;
  }
  return false;
}

/** Lower-case hex digits. */
export const HEX_DIGITS = memory.data<u8>([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102]);

/**
 * The bytes as Rust's `{:?}` prints a string (after `String::from_utf8_lossy`): in double quotes, with
 * `\"`, `\\`, `\n`, `\r`, `\t`, `\0` and `\u{hex}` for characters it does not print.
 */
export function writeDebugQuoted(b: Buffer, ptr: usize, len: usize): void {
  const end = ptr + len;
  bufferByte(b, 0x22);
  let at = ptr;
  while (at < end) {
    const lead = <u32>load<u8>(at);
    if (lead >= 0x20 && lead < 0x7f) {
      if (lead == 0x22 || lead == 0x5c) bufferByte(b, 0x5c);
      bufferByte(b, <u8>lead);
      at++;
      continue;
    }
    const length = lead < 0x80 ? 1 : utf8Sequence(at, end);
    if (length < 0) {
      writeReplacement(b);
      at += <usize>-length;
      continue;
    }
    const c = decodeUtf8(at, length);
    if (c == 0x09) bufferAscii(b, '\\t');
    else if (c == 0x0a) bufferAscii(b, '\\n');
    else if (c == 0x0d) bufferAscii(b, '\\r');
    else if (c == 0) bufferAscii(b, '\\0');
    else if (debugEscaped(c)) writeUnicodeEscape(b, c);
    else bufferBytes(b, at, <usize>length);
    at += <usize>length;
  }
  bufferByte(b, 0x22);
}

/** The code point of a valid `length`-byte UTF-8 sequence. */
function decodeUtf8(at: usize, length: i32): u32 {
  const lead = <u32>load<u8>(at);
  if (length == 1) return lead;
  let c = lead & (0x7f >> length);
  for (let i = 1; i < length; i++) c = (c << 6) | (<u32>load<u8>(at + <usize>i) & 0x3f);
  return c;
}

function writeUnicodeEscape(b: Buffer, c: u32): void {
  bufferAscii(b, '\\u{');
  let shift = 20;
  while (shift > 0 && c >> shift == 0) shift -= 4;
  for (; shift >= 0; shift -= 4) bufferByte(b, load<u8>(HEX_DIGITS + ((c >> shift) & 15)));
  bufferByte(b, 0x7d);
}

/** Whether the bytes are exactly the ASCII string literal. */
export function equalsAscii(ptr: usize, len: usize, text: string): bool {
  if (len != <usize>text.length) return false;
  for (let i: usize = 0; i < len; i++) if (load<u8>(ptr + i) != <u8>text.charCodeAt(<i32>i)) return false;
  return true;
}

/** Whether the bytes are the lower-case ASCII letters of `word`, in any case. */
export function equalsWordIgnoreCase(ptr: usize, len: usize, word: string): bool {
  if (len != <usize>word.length) return false;
  for (let i: usize = 0; i < len; i++) if ((load<u8>(ptr + i) | 0x20) != <u8>word.charCodeAt(<i32>i)) return false;
  return true;
}
