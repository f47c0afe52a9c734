// `parse_key_value`: VRL's nom grammar, replayed on bytes. A line is a list of `key [kv value]` elements
// separated by the field delimiter; keys and values are quoted (`"…"`, `\` escapes) or run to the next
// delimiter and are trimmed. Results point into the text: only unescaped quoted tokens are copied.

import {
  Value,
  Tag,
  TRUE,
  tagOf,
  boolOf,
  bytesPtr,
  bytesLen,
  newBytes,
  newObject,
  objectFind,
  objectInsertAt,
  objectValue,
  objectSetValueAt,
  newArray,
  arrayPush,
} from '../value';
import { fail, failWith } from '../error';
import {
  Buffer,
  bufferNew,
  bufferByte,
  bufferBytes,
  bufferAscii,
  bufferData,
  bufferLength,
  bufferToBytes,
} from '../buffer';
import { writeInt } from '../codec/number';
import { expectKinds } from './support/args';
import { equalsAscii } from '../text';
import { lossy, findBytes, bytesAt, trimStart, trimEnd } from './support/text';
import { bytesBelow, bytesEqual, bytesNonAscii } from '../codec/scan';
import { KindBit } from '../../abi/wire/kinds';

const DEFAULT_KEY_VALUE_DELIMITER = memory.data<u8>([0x3d]);
const DEFAULT_FIELD_DELIMITER = memory.data<u8>([0x20]);
const NEWLINE = memory.data<u8>([0x0a]);

/**
 * `parse_key_value(value, key_value_delimiter = "=", field_delimiter = " ", whitespace = "lenient",
 * accept_standalone_key = true)`.
 */
export function fn_parse_key_value(
  value: Value,
  keyValueDelimiter: Value,
  fieldDelimiter: Value,
  whitespace: Value,
  acceptStandaloneKey: Value,
): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  if (keyValueDelimiter != 0 && !expectKinds(keyValueDelimiter, KindBit.Bytes)) return 0;
  if (fieldDelimiter != 0 && !expectKinds(fieldDelimiter, KindBit.Bytes)) return 0;
  if (whitespace != 0 && !expectKinds(whitespace, KindBit.Bytes)) return 0;
  if (acceptStandaloneKey != 0 && !expectKinds(acceptStandaloneKey, KindBit.Boolean)) return 0;
  const input = lossy(value);
  text = bytesPtr(input);
  textLen = bytesLen(input);
  if (keyValueDelimiter == 0) {
    kvPtr = DEFAULT_KEY_VALUE_DELIMITER;
    kvLen = 1;
  } else {
    const kv = lossy(keyValueDelimiter);
    kvPtr = bytesPtr(kv);
    kvLen = bytesLen(kv);
  }
  if (fieldDelimiter == 0) {
    fdPtr = DEFAULT_FIELD_DELIMITER;
    fdLen = 1;
  } else {
    const fd = lossy(fieldDelimiter);
    fdPtr = bytesPtr(fd);
    fdLen = bytesLen(fd);
  }
  strict = whitespace != 0 && equalsAscii(bytesPtr(whitespace), bytesLen(whitespace), 'strict');
  standalone = acceptStandaloneKey == 0 || boolOf(acceptStandaloneKey);

  const result = newObject(8);
  let at = element(0);
  if (at < 0) return failParse();
  add(result, value_);
  for (;;) {
    const next = delimiterEnd(<usize>at, fdPtr, fdLen);
    if (next < 0) break;
    if (next == at) {
      // nom's separated_list1 refuses a separator that consumes nothing.
      elementError(1, <usize>at, 'SeparatedList', 0, '');
      return failParse();
    }
    const after = element(<usize>next);
    if (after < 0) break;
    add(result, value_);
    at = after;
  }
  if (trimStart(text + <usize>at, text + textLen) != text + textLen) {
    return failWith('could not parse whole line successfully');
  }
  return result;
}

// ---- parser state --------------------------------------------------------------------------------------

let text: usize = 0;
let textLen: usize = 0;
let kvPtr: usize = 0;
let kvLen: usize = 0;
let fdPtr: usize = 0;
let fdLen: usize = 0;
let strict = false;
let standalone = true;

/** The last token read: [tokenStart, tokenEnd) offsets, and whether it is quoted text with escapes. */
let tokenStart: usize = 0;
let tokenEnd: usize = 0;
let tokenEscaped = false;

/** The last element read. */
let keyStart: usize = 0;
let keyEnd: usize = 0;
let keyEscaped = false;
let value_: Value = 0;

/** Why the first element failed: up to two nom errors (position, kind), as `convert_error` lists them. */
let errorCount = 0;
let errorAt0: usize = 0;
let errorKind0 = '';
let errorAt1: usize = 0;
let errorKind1 = '';

// @ts-ignore: decorator
@inline function byteAt(i: usize): u32 {
  return <u32>load<u8>(text + i);
}

/** nom's `space0`: spaces and tabs. */
function spaces0(at: usize): usize {
  // The text in locals: TurboFan loads a global at every use.
  const start = text;
  const stop = textLen;
  while (at < stop) {
    const c = load<u8>(start + at);
    if (c != 0x20 && c != 0x09) break;
    at++;
  }
  return at;
}

/** End of a delimiter at `at` (VRL's `parse_field_delimiter`: spaces may precede it), or -1. */
function delimiterEnd(at: usize, ptr: usize, len: usize): isize {
  const start = text;
  const stop = textLen;
  let next = at;
  while (next < stop && load<u8>(start + next) == 0x20) next++;
  if (len == 1 && load<u8>(ptr) == 0x20) return next > at ? <isize>next : -1;
  return bytesAt(text, textLen, next, ptr, len) ? <isize>(next + len) : -1;
}

/**
 * A `"…"` token at `at` that a terminator delimiter (or spaces up to the end) follows. Sets the token to its
 * content; returns the position after the closing quote, or -1.
 */
// @ts-ignore: decorator
@inline function quoted(at: usize, termPtr: usize, termLen: usize): isize {
  // Most tokens are not quoted: then no call.
  return at < textLen && byteAt(at) == 0x22 ? quotedToken(at, termPtr, termLen) : -1;
}

function quotedToken(at: usize, termPtr: usize, termLen: usize): isize {
  let i = at + 1;
  let escaped = false;
  for (;;) {
    i = quoteOrBackslash(i);
    if (i >= textLen) return -1;
    const c = byteAt(i);
    if (c == 0x22) break;
    if (c == 0x5c) {
      if (i + 1 >= textLen) return -1;
      escaped = true;
      // The escaped character is any one code point.
      const lead = byteAt(i + 1);
      i += 2 + (lead < 0x80 ? 0 : lead < 0xe0 ? 1 : lead < 0xf0 ? 2 : 3);
    } else {
      i++;
    }
  }
  const after = i + 1;
  if (delimiterEnd(after, termPtr, termLen) < 0 && spaces0(after) != textLen) return -1;
  tokenStart = at + 1;
  tokenEnd = i;
  tokenEscaped = escaped;
  return <isize>after;
}

/** The first `"` or `\` at or after `at`, or textLen: eight bytes at a time (words may reach past the end: READ_SLACK). */
function quoteOrBackslash(at: usize): usize {
  while (at < textLen) {
    const word = load<u64>(text + at);
    const found = bytesEqual(word, 0x22) | bytesEqual(word, 0x5c);
    if (found != 0) {
      at += <usize>(ctz(found) >> 3);
      return at < textLen ? at : textLen;
    }
    at += 8;
  }
  return textLen;
}

/** Text from `at` up to the delimiter (or the end), trimmed. Returns the delimiter's position. */
function undelimited(at: usize, ptr: usize, len: usize): usize {
  const found = findBytes(text, textLen, at, ptr, len);
  const end = found < 0 ? textLen : <usize>found;
  const trimmedEnd = trimEnd(text + at, text + end);
  tokenStart = trimStart(text + at, trimmedEnd) - text;
  tokenEnd = trimmedEnd - text;
  tokenEscaped = false;
  return end;
}

/** Reads one element at `at` into keyStart/keyEnd/value_; returns the position after it, or -1. */
function element(at: usize): isize {
  at = spaces0(at);
  if (kvLen == 1 && fdLen == 1) {
    const plain = plainElement(at, load<u8>(kvPtr), load<u8>(fdPtr));
    if (plain >= 0) return plain;
  }
  let next = quoted(at, kvPtr, kvLen);
  if (standalone) {
    if (next < 0) next = quoted(at, fdPtr, fdLen);
    if (next < 0) {
      const end = undelimited(at, kvPtr, kvLen);
      if (tokenEnd > tokenStart && findBytes(text + tokenStart, tokenEnd - tokenStart, 0, fdPtr, fdLen) < 0) {
        next = <isize>end;
      }
    }
    if (next < 0) next = <isize>undelimited(at, fdPtr, fdLen);
  } else if (next < 0) {
    next = <isize>undelimited(at, kvPtr, kvLen);
  }
  // Whichever way it was read, a key is not empty.
  if (tokenEnd == tokenStart) return elementError(1, at, 'Verify', 0, '');
  keyStart = tokenStart;
  keyEnd = tokenEnd;
  keyEscaped = tokenEscaped;

  // The key-value delimiter: optional for standalone keys; lenient mode allows spaces around it.
  at = <usize>next;
  const tagAt = strict ? at : spaces0(at);
  const paired = bytesAt(text, textLen, tagAt, kvPtr, kvLen);
  if (paired) {
    const after = strict ? tagAt + kvLen : spaces0(tagAt + kvLen);
    // nom's many_m_n refuses a delimiter that consumes nothing.
    if (after == at) return elementError(1, at, 'ManyMN', 0, '');
    at = after;
  } else if (!standalone) {
    return elementError(2, tagAt, 'Tag', at, 'ManyMN');
  }

  next = quoted(at, fdPtr, fdLen);
  if (next < 0) next = <isize>undelimited(at, fdPtr, fdLen);
  value_ = paired ? token(tokenStart, tokenEnd, tokenEscaped) : TRUE;
  return next;
}

/**
 * The usual element, `key=value` with one-byte delimiters and both tokens plain (unquoted, ASCII, neither
 * whitespace nor a control character inside): read in two word-at-a-time scans, as the grammar below reads it.
 * Either token plain and not quoted makes the grammar's trims and checks no-ops: the key is all bytes up to the
 * key-value delimiter (no field delimiter in it), the value all bytes up to the field delimiter or the end. -1
 * for any other element, which the grammar then reads.
 */
function plainElement(at: usize, kv: u8, fd: u8): isize {
  const start = text;
  const stop = textLen;
  if (at >= stop || load<u8>(start + at) == 0x22) return -1;
  const keyStop = plainEnd(at, kv, fd, true);
  if (keyStop == at || keyStop >= stop || load<u8>(start + keyStop) != kv) return -1;
  const valueStart = keyStop + 1;
  if (valueStart >= stop || load<u8>(start + valueStart) == 0x22) return -1;
  const valueEnd = plainEnd(valueStart, kv, fd, false);
  if (valueEnd == valueStart || (valueEnd < stop && load<u8>(start + valueEnd) != fd)) return -1;
  keyStart = at;
  keyEnd = keyStop;
  keyEscaped = false;
  value_ = newBytes(start + valueStart, valueEnd - valueStart);
  return <isize>valueEnd;
}

/** The first byte at or after `at` that ends a plain token: the field delimiter, the key-value delimiter
 * (`key`), a space, control or non-ASCII byte; or textLen. Words may reach past the end (READ_SLACK). */
function plainEnd(at: usize, kv: u8, fd: u8, key: bool): usize {
  const start = text;
  const stop = textLen;
  while (at < stop) {
    const word = load<u64>(start + at);
    const found =
      bytesEqual(word, fd) | (key ? bytesEqual(word, kv) : 0) | bytesBelow(word, 0x21) | bytesNonAscii(word);
    if (found != 0) {
      at += <usize>(ctz(found) >> 3);
      return at < stop ? at : stop;
    }
    at += 8;
  }
  return stop;
}

/** Records `count` nom errors (the first is the innermost); returns -1. */
function elementError(count: i32, at0: usize, kind0: string, at1: usize, kind1: string): isize {
  errorCount = count;
  errorAt0 = at0;
  errorKind0 = kind0;
  errorAt1 = at1;
  errorKind1 = kind1;
  return -1;
}

/** A token as a byte string: a slice of the text, or its unescaped copy (`\"`, `\\`, `\n`). */
function token(start: usize, end: usize, escaped: bool): Value {
  if (!escaped) return newBytes(text + start, end - start);
  const b = bufferNew(end - start);
  for (let i = start; i < end; i++) {
    const c = byteAt(i);
    if (c == 0x5c && i + 1 < end) {
      const n = byteAt(i + 1);
      if (n == 0x22 || n == 0x5c || n == 0x6e) {
        bufferByte(b, <u8>(n == 0x6e ? 0x0a : n));
        i++;
        continue;
      }
    }
    bufferByte(b, <u8>c);
  }
  return bufferToBytes(b);
}

/**
 * Adds the last element: a repeated key collects its values in an array; a standalone key (`true`) only
 * fills a key not seen yet, and a value replaces an earlier standalone `true`.
 */
function add(result: Value, v: Value): void {
  // The object refers to key bytes, which need no record of their own unless unescaped into a copy.
  let keyPtr = text + keyStart;
  let keyLen = keyEnd - keyStart;
  if (keyEscaped) {
    const key = token(keyStart, keyEnd, true);
    keyPtr = bytesPtr(key);
    keyLen = bytesLen(key);
  }
  const at = objectFind(result, keyPtr, keyLen);
  if (at < 0) return objectInsertAt(result, <usize>(-at - 1), keyPtr, keyLen, v);
  const existing = objectValue(result, <usize>at);
  if (existing == TRUE && v != TRUE) return objectSetValueAt(result, <usize>at, v);
  if (v == TRUE) return;
  if (tagOf(existing) == Tag.Array) return arrayPush(existing, v);
  const values = newArray(4);
  arrayPush(values, existing);
  arrayPush(values, v);
  objectSetValueAt(result, <usize>at, values);
}

/** Records nom's `convert_error` text for the first element's failure; returns 0. */
function failParse(): Value {
  const b = bufferNew(128);
  writeNomError(b, 0, errorAt0, errorKind0);
  if (errorCount > 1) writeNomError(b, 1, errorAt1, errorKind1);
  return fail(bufferData(b), bufferLength(b));
}

function writeNomError(b: Buffer, index: i32, at: usize, kind: string): void {
  writeInt(b, index);
  if (textLen == 0) {
    bufferAscii(b, ': in ');
    bufferAscii(b, kind);
    bufferAscii(b, ', got empty input\n\n');
    return;
  }
  let lineNumber = 1;
  let lineStart: usize = 0;
  for (let i: usize = 0; i < at; i++) {
    if (byteAt(i) == 0x0a) {
      lineNumber++;
      lineStart = i + 1;
    }
  }
  const newline = findBytes(text, textLen, lineStart, NEWLINE, 1);
  let lineEnd = newline < 0 ? textLen : <usize>newline;
  if (lineEnd > lineStart && byteAt(lineEnd - 1) == 0x0d) lineEnd--;
  lineEnd = trimEnd(text + lineStart, text + lineEnd) - text;
  bufferAscii(b, ': at line ');
  writeInt(b, lineNumber);
  bufferAscii(b, ', in ');
  bufferAscii(b, kind);
  bufferAscii(b, ':\n');
  bufferBytes(b, text + lineStart, lineEnd - lineStart);
  bufferByte(b, 0x0a);
  for (let i = lineStart; i < at; i++) bufferByte(b, 0x20);
  bufferAscii(b, '^\n\n');
}
