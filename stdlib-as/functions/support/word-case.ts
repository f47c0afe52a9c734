// The case conversions of `camelcase`, `pascalcase`, `snakecase`, `kebabcase` and `screamingsnakecase`,
// as VRL does them with the `convert_case` crate: the text is split into words at boundaries (the
// delimiters `_`, `-` and space are dropped; the others, such as lower→upper in `fooBar`, split between
// characters), then the words are re-cased and joined. `original_case` picks the boundaries of that case;
// without it, the crate's default boundaries apply.

import { Value, bytesPtr, bytesLen, arrayLen, arrayGet } from '../../value';
import { casemap } from '~lib/util/casemap';
import { Buffer, bufferNew, bufferByte, bufferBytes, bufferToBytes } from '../../buffer';
import { failWith } from '../../error';
import { equalsAscii } from '../../text';
import { expectKinds } from './args';
import { lossy, codePointAt, sequenceLength, bytesSlice } from './text';
import { changeCase } from './case';
import { KindBit } from '../../../abi/wire/kinds';

export const enum Boundary {
  Underscore = 1,
  Hyphen = 2,
  Space = 4,
  LowerUpper = 8,
  UpperLower = 16,
  DigitUpper = 32,
  UpperDigit = 64,
  DigitLower = 128,
  LowerDigit = 256,
  Acronym = 512,
}

const DEFAULT_BOUNDARIES: u32 =
  Boundary.Underscore |
  Boundary.Hyphen |
  Boundary.Space |
  Boundary.LowerUpper |
  Boundary.UpperDigit |
  Boundary.DigitUpper |
  Boundary.DigitLower |
  Boundary.LowerDigit |
  Boundary.Acronym;
const CAMEL_BOUNDARIES: u32 =
  Boundary.LowerUpper |
  Boundary.Acronym |
  Boundary.LowerDigit |
  Boundary.UpperDigit |
  Boundary.DigitLower |
  Boundary.DigitUpper;

/** `original_case` values and the boundaries their words are split at. */
const CASE_NAMES: StaticArray<string> = ['camelCase', 'PascalCase', 'snake_case', 'SCREAMING_SNAKE', 'kebab-case'];
const CASE_BOUNDARIES: StaticArray<u32> = [
  CAMEL_BOUNDARIES,
  CAMEL_BOUNDARIES,
  Boundary.Underscore,
  Boundary.Underscore,
  Boundary.Hyphen,
];
/** `excluded_boundaries` values. */
const BOUNDARY_NAMES: StaticArray<string> = [
  'lower_upper',
  'upper_lower',
  'digit_upper',
  'upper_digit',
  'digit_lower',
  'lower_digit',
  'acronym',
];
const BOUNDARY_BITS: StaticArray<u32> = [
  Boundary.LowerUpper,
  Boundary.UpperLower,
  Boundary.DigitUpper,
  Boundary.UpperDigit,
  Boundary.DigitLower,
  Boundary.LowerDigit,
  Boundary.Acronym,
];

/** How the words are written. */
export const enum WordCase {
  /** `camelCase`: the first word lower case, the others capitalized, no delimiter. */
  Camel,
  /** `PascalCase`: every word capitalized. */
  Pascal,
  Lower,
  Upper,
}

const enum CharClass {
  Other,
  Lower,
  Upper,
  Digit,
}

/** convert_case's test: a letter with distinct cases, equal to its upper (or lower) form. */
function classOf(c: u32): CharClass {
  if (c - 0x30 < 10) return CharClass.Digit;
  if (c < 0x80) return c - 0x61 < 26 ? CharClass.Lower : c - 0x41 < 26 ? CharClass.Upper : CharClass.Other;
  const upper = <u32>(casemap(c, 1) & 0x1fffff);
  const lower = <u32>(casemap(c, 0) & 0x1fffff);
  if (upper == lower) return CharClass.Other;
  return c == upper ? CharClass.Upper : c == lower ? CharClass.Lower : CharClass.Other;
}

function delimiterBit(c: u32): u32 {
  return c == 0x5f ? Boundary.Underscore : c == 0x2d ? Boundary.Hyphen : c == 0x20 ? Boundary.Space : 0;
}

/** The boundary between two adjacent characters of these classes, if any. */
function pairBit(a: CharClass, b: CharClass): u32 {
  if (a == CharClass.Lower)
    return b == CharClass.Upper ? Boundary.LowerUpper : b == CharClass.Digit ? Boundary.LowerDigit : 0;
  if (a == CharClass.Upper)
    return b == CharClass.Lower ? Boundary.UpperLower : b == CharClass.Digit ? Boundary.UpperDigit : 0;
  if (a == CharClass.Digit)
    return b == CharClass.Upper ? Boundary.DigitUpper : b == CharClass.Lower ? Boundary.DigitLower : 0;
  return 0;
}

/**
 * The `original_case` and `excluded_boundaries` arguments as a boundary set, or -1 (message pending) when
 * one is not a string, or names no case or boundary.
 */
export function boundariesOf(originalCase: Value, excluded: Value): i64 {
  let bits = DEFAULT_BOUNDARIES;
  if (originalCase != 0) {
    if (!expectKinds(originalCase, KindBit.Bytes)) return -1;
    const index = nameIndex(originalCase, CASE_NAMES);
    if (index < 0) {
      failWith('unknown case');
      return -1;
    }
    bits = unchecked(CASE_BOUNDARIES[index]);
  }
  if (excluded != 0) {
    if (!expectKinds(excluded, KindBit.Array)) return -1;
    for (let i: usize = 0; i < arrayLen(excluded); i++) {
      const item = arrayGet(excluded, i);
      if (!expectKinds(item, KindBit.Bytes)) return -1;
      const index = nameIndex(item, BOUNDARY_NAMES);
      if (index < 0) {
        failWith('unknown boundary');
        return -1;
      }
      bits &= ~unchecked(BOUNDARY_BITS[index]);
    }
  }
  return bits;
}

function nameIndex(v: Value, names: StaticArray<string>): i32 {
  for (let i = 0; i < names.length; i++) if (equalsAscii(bytesPtr(v), bytesLen(v), unchecked(names[i]))) return i;
  return -1;
}

/** `value` (a string, checked here) split at `boundaries` and written in `wordCase` joined by `delimiter` (0: none). */
export function convertCase(value: Value, boundaries: u32, wordCase: WordCase, delimiter: u8): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const end = ptr + bytesLen(text);
  const out = bufferNew(bytesLen(text) + 8);
  let words = 0;
  let wordStart = ptr;
  let previous = CharClass.Other;
  for (let at = ptr; at < end; ) {
    const c = codePointAt(at);
    const next = at + sequenceLength(<u32>load<u8>(at));
    const current = classOf(c);
    if (delimiterBit(c) & boundaries) {
      if (at > wordStart) writeWord(out, text, wordStart - ptr, at - ptr, wordCase, delimiter, words++);
      wordStart = next;
    } else if (at > wordStart) {
      let split = (pairBit(previous, current) & boundaries) != 0;
      // Acronym: two upper-case letters then a lower-case one split before the second (`HTTPRequest`).
      if (
        !split &&
        boundaries & Boundary.Acronym &&
        previous == CharClass.Upper &&
        current == CharClass.Upper &&
        next < end
      ) {
        split = classOf(codePointAt(next)) == CharClass.Lower;
      }
      if (split) {
        writeWord(out, text, wordStart - ptr, at - ptr, wordCase, delimiter, words++);
        wordStart = at;
      }
    }
    previous = current;
    at = next;
  }
  if (end > wordStart) writeWord(out, text, wordStart - ptr, end - ptr, wordCase, delimiter, words);
  return bufferToBytes(out);
}

function writeWord(
  out: Buffer,
  text: Value,
  start: usize,
  end: usize,
  wordCase: WordCase,
  delimiter: u8,
  index: i32,
): void {
  if (index > 0 && delimiter != 0) bufferByte(out, delimiter);
  let cased: Value;
  if (wordCase == WordCase.Lower || (wordCase == WordCase.Camel && index == 0)) {
    cased = changeCase(bytesSlice(text, start, end), false);
  } else if (wordCase == WordCase.Upper) {
    cased = changeCase(bytesSlice(text, start, end), true);
  } else {
    const first = start + sequenceLength(<u32>load<u8>(bytesPtr(text) + start));
    const head = changeCase(bytesSlice(text, start, first), true);
    bufferBytes(out, bytesPtr(head), bytesLen(head));
    cased = changeCase(bytesSlice(text, first, end), false);
  }
  bufferBytes(out, bytesPtr(cased), bytesLen(cased));
}
