// Word-at-a-time byte scanning: find the first byte of a class in eight bytes with a few integer operations
// (the classic "has zero byte" trick), so text codecs copy plain runs in one piece instead of byte by byte.
//
// Each mask below has the high bit set in the bytes of the word that belong to the class. A borrow can only
// set bits in bytes above a byte that really belongs to the class, so the lowest marked byte is always exact:
// `ctz(mask) >> 3` is the index of the first byte of the class.

export const ONES: u64 = 0x0101010101010101;
export const HIGH_BITS: u64 = 0x8080808080808080;

/** Bytes equal to `byte`. */
// @ts-ignore: decorator
@inline export function bytesEqual(word: u64, byte: u8): u64 {
  const x = word ^ (ONES * <u64>byte);
  return (x - ONES) & ~x & HIGH_BITS;
}

/** Bytes below `limit` (at most 0x80). */
// @ts-ignore: decorator
@inline export function bytesBelow(word: u64, limit: u8): u64 {
  return (word - ONES * <u64>limit) & ~word & HIGH_BITS;
}

/** Bytes of 0x80 and above (not ASCII). */
// @ts-ignore: decorator
@inline export function bytesNonAscii(word: u64): u64 {
  return word & HIGH_BITS;
}

/** The bytes a text format escapes. */
const enum Escaped {
  None,
  /** JSON strings: `"`, `\` and control characters. */
  Json,
  /** VRL's display of a string: `"`, `\` and newline. */
  Display,
  /** What may make logfmt quote a key or value: `"`, `=`, and the ASCII whitespace and controls up to 0x0d. */
  LogfmtQuote,
}

// @ts-ignore: decorator
@inline function escapedBytes(word: u64, escaped: Escaped): u64 {
  if (escaped == Escaped.Json) return bytesEqual(word, 0x22) | bytesEqual(word, 0x5c) | bytesBelow(word, 0x20);
  if (escaped == Escaped.Display) return bytesEqual(word, 0x22) | bytesEqual(word, 0x5c) | bytesEqual(word, 0x0a);
  if (escaped == Escaped.LogfmtQuote)
    return bytesEqual(word, 0x22) | bytesEqual(word, 0x3d) | bytesEqual(word, 0x20) | bytesBelow(word, 0x0e);
  return 0;
}

/**
 * The address of the first byte in [at, stop) that `escaped` escapes or, with `nonAscii`, that is not ASCII;
 * or `stop`. It reads whole words even at the end: bytes past `stop` are readable (READ_SLACK), and a byte
 * they mark lands at `stop` or later (marks only spread upwards), so clamping the index to `stop` ignores it.
 */
// @ts-ignore: decorator
@inline function scanTo(at: usize, stop: usize, escaped: Escaped, nonAscii: bool): usize {
  while (at < stop) {
    const word = load<u64>(at);
    const found = escapedBytes(word, escaped) | (nonAscii ? bytesNonAscii(word) : 0);
    if (found != 0) {
      const hit = at + <usize>(ctz(found) >> 3);
      return hit < stop ? hit : stop;
    }
    at += 8;
  }
  return stop;
}

/** The bytes of `word` that a JSON string does not hold as they are or that need UTF-8 validation. */
// @ts-ignore: decorator
@inline export function jsonPlainMask(word: u64): u64 {
  return escapedBytes(word, Escaped.Json) | bytesNonAscii(word);
}

/**
 * The first byte in [at, stop) that a JSON string does not hold as it is (`"`, `\`, control) or that needs
 * UTF-8 validation (non-ASCII); or `stop`.
 */
// @ts-ignore: decorator
@inline export function jsonPlainEnd(at: usize, stop: usize): usize {
  return scanTo(at, stop, Escaped.Json, true);
}

/** The first `"`, `\` or control byte in [at, stop), or `stop`. */
export function jsonEscapeEnd(at: usize, stop: usize): usize {
  return scanTo(at, stop, Escaped.Json, false);
}

/** The first `"`, `\`, newline or non-ASCII byte in [at, stop), or `stop`. */
export function displayPlainEnd(at: usize, stop: usize): usize {
  return scanTo(at, stop, Escaped.Display, true);
}

/** The first `"`, `\` or newline in [at, stop), or `stop`. */
export function displayEscapeEnd(at: usize, stop: usize): usize {
  return scanTo(at, stop, Escaped.Display, false);
}

/**
 * The first byte in [at, stop) that may make logfmt quote a text: `"`, `=`, ASCII whitespace or a control
 * below 0x0e, or a non-ASCII byte (Unicode whitespace); or `stop`.
 */
export function logfmtQuoteEnd(at: usize, stop: usize): usize {
  return scanTo(at, stop, Escaped.LogfmtQuote, true);
}

/** The first non-ASCII byte in [at, stop), or `stop`. */
export function asciiEnd(at: usize, stop: usize): usize {
  return scanTo(at, stop, Escaped.None, true);
}
