// JSON text ↔ values, with serde_json's semantics: what VRL's `parse_json`/`encode_json` and Vector's JSON
// codec do. Parse errors carry serde_json's messages and positions (`expected value at line 1 column 1`).

import {
  Value,
  Tag,
  NULL,
  TRUE,
  FALSE,
  alloc,
  tagOf,
  newInt,
  newFloat,
  newBytes,
  newArray,
  arrayPush,
  arrayLen,
  arrayGet,
  newObject,
  objectAppend,
  objectSortEntries,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  intOf,
  floatOf,
  timestampSeconds,
  timestampNanos,
  bytesPtr,
  bytesLen,
  regexPatternPtr,
  regexPatternLen,
  copyMemory,
  arenaRoom,
  allocShrink,
} from '../value';
import { fail } from '../error';
import {
  Buffer,
  bufferNew,
  bufferReserve,
  bufferByte,
  bufferBytes,
  bufferAscii,
  bufferData,
  bufferLength,
  bufferQuoted,
} from '../buffer';
import { writeInt, writeFloatJson, scanStart, scanDigits, scanExponentPart, scanToFloat } from './number';
import { writeRfc3339 } from './time';
import { utf8Sequence, writeLossy, writeReplacement } from './utf8';
import { jsonPlainEnd, jsonEscapeEnd, jsonPlainMask } from './scan';
import { HEX_LOWER } from './hex';
import { mayDescend } from '../depth';

// ---- parsing -------------------------------------------------------------------------------------------

/** serde_json's default recursion limit: the 128th nested container is an error. */
const RECURSION_LIMIT: i32 = 128;

/** The text being parsed: [begin, end), read position `pos`. */
let begin: usize = 0;
let end: usize = 0;
let pos: usize = 0;
let depthLeft: i32 = 0;
/** Containers at this nesting level (the top level is 0) are kept as their raw JSON text. */
let rawLevel: i32 = 0;
let level: i32 = 0;
/** The last string read by `readString`. */
let stringPtr: usize = 0;
let stringLen: usize = 0;

/**
 * Parses one JSON document (surrounding whitespace allowed). Returns 0 with serde_json's message pending
 * when the text is invalid. Strings without escapes point into the text, so it must outlive the value.
 */
export function parseJson(ptr: usize, len: usize): Value {
  return parseJsonWith(ptr, len, 0, true);
}

/** Errors name the column only, and say what failed: the text is one line of a larger input. */
let lineOfInput = false;

/**
 * `parseJson` of one line of newline-delimited input: the error reads `invalid JSON: <message> at column
 * C`, for the caller to name the line (serde_json's "line 1" would be this text's, not the input's).
 */
export function parseJsonLine(ptr: usize, len: usize): Value {
  lineOfInput = true;
  const v = parseJson(ptr, len);
  lineOfInput = false;
  return v;
}

/**
 * `parseJson` with VRL's options: `maxDepth` > 0 keeps containers nested that deep as raw JSON strings;
 * `lossy` reads invalid UTF-8 as U+FFFD instead of failing on it.
 */
export function parseJsonWith(ptr: usize, len: usize, maxDepth: i32, lossy: bool): Value {
  const v = parseDocument(ptr, len, maxDepth);
  // serde_json reads a lossy conversion of the text: redo the parse on one when it matters, so that values
  // and error positions are the converted text's.
  if (v != 0 || !lossy || isValidUtf8(ptr, len)) return v;
  const converted = bufferNew(len + 16);
  writeLossy(converted, ptr, len);
  return parseDocument(bufferData(converted), bufferLength(converted), maxDepth);
}

/** Whether the bytes are valid UTF-8. */
export function isValidUtf8(ptr: usize, len: usize): bool {
  const stop = ptr + len;
  let at = ptr;
  while (at < stop) {
    if (load<u8>(at) < 0x80) {
      at++;
      continue;
    }
    const length = utf8Sequence(at, stop);
    if (length < 0) return false;
    at += <usize>length;
  }
  return true;
}

function parseDocument(ptr: usize, len: usize, maxDepth: i32): Value {
  begin = ptr;
  end = ptr + len;
  pos = ptr;
  depthLeft = RECURSION_LIMIT;
  rawLevel = maxDepth > 0 ? maxDepth : i32.MAX_VALUE;
  level = 0;
  const v = parseValue();
  if (v == 0) return 0;
  skipWhitespace();
  if (pos < end) return failPeek('trailing characters');
  return v;
}

// @ts-ignore: decorator
@inline function skipWhitespace(): void {
  pos = skipSpaces(pos, end);
}

/**
 * Past JSON whitespace from `at`. Readers keep their position in locals between calls: TurboFan loads and
 * stores a global at every use.
 */
// @ts-ignore: decorator
@inline function skipSpaces(at: usize, stop: usize): usize {
  while (at < stop) {
    const c = load<u8>(at);
    if (c > 0x20 || (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09)) break;
    at++;
  }
  return at;
}

/** Records `<message> at line L column C` for the byte offset `index` and returns 0. */
function failAt(message: string, index: usize): Value {
  let lineStart = begin;
  let line: i64 = 1;
  for (let at = begin; at < index; at++) {
    if (load<u8>(at) == 0x0a) {
      line++;
      lineStart = at + 1;
    }
  }
  const b = bufferNew(80);
  if (lineOfInput) bufferAscii(b, 'invalid JSON: ');
  bufferAscii(b, message);
  if (!lineOfInput) {
    bufferAscii(b, ' at line ');
    writeInt(b, line);
  }
  bufferAscii(b, lineOfInput ? ' at column ' : ' column ');
  writeInt(b, <i64>(index - lineStart));
  return fail(bufferData(b), bufferLength(b));
}

/** An error at the position after what was consumed (serde_json's `error`). */
// @ts-ignore: decorator
@inline function failHere(message: string): Value {
  return failAt(message, pos);
}

/** An error at the position of the byte looked at but not consumed (serde_json's `peek_error`). */
function failPeek(message: string): Value {
  return failPeekAt(message, pos);
}

/** `failPeek` of the byte at `at`. */
function failPeekAt(message: string, at: usize): Value {
  return failAt(message, at < end ? at + 1 : end);
}

function parseValue(): Value {
  const at = skipSpaces(pos, end);
  pos = at;
  if (at == end) return failPeekAt('EOF while parsing a value', at);
  const c = load<u8>(at);
  switch (c) {
    case 0x7b:
      return parseObject();
    case 0x5b:
      return parseArray();
    case 0x22: {
      pos++;
      return readString() ? newBytes(stringPtr, stringLen) : 0;
    }
    case 0x74:
      return parseIdent('true', TRUE);
    case 0x66:
      return parseIdent('false', FALSE);
    case 0x6e:
      return parseIdent('null', NULL);
  }
  if (c == 0x2d || (c >= 0x30 && c <= 0x39)) return parseNumber();
  return failPeek('expected value');
}

/** `true`, `false` or `null`: the first byte is known to match. */
function parseIdent(word: string, v: Value): Value {
  pos++;
  for (let i = 1, n = word.length; i < n; i++) {
    if (pos == end) return failHere('EOF while parsing a value');
    if (<u16>load<u8>(pos++) != load<u16>(changetype<usize>(word) + ((<usize>i) << 1))) {
      return failHere('expected ident');
    }
  }
  return v;
}

/** Enters a container whose opening bracket is at `pos`; false (message pending) past the recursion limit. */
function enter(): bool {
  pos++;
  if (--depthLeft == 0) {
    failHere('recursion limit exceeded');
    return false;
  }
  level++;
  return true;
}

/** Leaves the container that started at `start`: its value, or its raw text at the raw level. */
function leave(start: usize, v: Value): Value {
  depthLeft++;
  level--;
  return level >= rawLevel ? newBytes(start, pos - start) : v;
}

function parseArray(): Value {
  const start = pos;
  if (!enter()) return 0;
  const a = newArray(4);
  const stop = end;
  let at = skipSpaces(pos, stop);
  if (at == stop) return failPeekAt('EOF while parsing a list', at);
  if (load<u8>(at) == 0x5d) {
    pos = at + 1;
    return leave(start, a);
  }
  while (true) {
    pos = at;
    const item = parseValue();
    if (item == 0) return 0;
    arrayPush(a, item);
    at = skipSpaces(pos, stop);
    if (at == stop) return failPeekAt('EOF while parsing a list', at);
    const c = load<u8>(at);
    if (c == 0x5d) {
      pos = at + 1;
      return leave(start, a);
    }
    if (c != 0x2c) return failPeekAt('expected `,` or `]`', at);
    at = skipSpaces(at + 1, stop);
    if (at == stop) return failPeekAt('EOF while parsing a value', at);
    if (load<u8>(at) == 0x5d) return failPeekAt('trailing comma', at);
  }
  // biome-ignore lint/correctness/noUnreachable: asc wants a return after the loop
  return 0;
}

function parseObject(): Value {
  const start = pos;
  if (!enter()) return 0;
  const o = newObject(8);
  let inOrder = true;
  const stop = end;
  let at = skipSpaces(pos, stop);
  if (at == stop) return failPeekAt('EOF while parsing an object', at);
  if (load<u8>(at) == 0x7d) {
    pos = at + 1;
    return leave(start, o);
  }
  while (true) {
    const q = load<u8>(at);
    if (q != 0x22) return failPeekAt(q == 0x7d ? 'trailing comma' : 'key must be a string', at);
    pos = at + 1;
    if (!readString()) return 0;
    const key = stringPtr;
    const keyLen = stringLen;
    at = skipSpaces(pos, stop);
    if (at == stop) return failPeekAt('EOF while parsing an object', at);
    if (load<u8>(at) != 0x3a) return failPeekAt('expected `:`', at);
    pos = at + 1;
    const v = parseValue();
    if (v == 0) return 0;
    if (!objectAppend(o, key, keyLen, v)) inOrder = false;
    at = skipSpaces(pos, stop);
    if (at == stop) return failPeekAt('EOF while parsing an object', at);
    const c = load<u8>(at);
    if (c == 0x7d) {
      pos = at + 1;
      if (!inOrder) objectSortEntries(o);
      return leave(start, o);
    }
    if (c != 0x2c) return failPeekAt('expected `,` or `}`', at);
    at = skipSpaces(at + 1, stop);
    if (at == stop) return failPeekAt('EOF while parsing a value', at);
  }
  // biome-ignore lint/correctness/noUnreachable: asc wants a return after the loop
  return 0;
}

/**
 * Reads a string whose opening quote is consumed, into stringPtr/stringLen; false (message pending) when it
 * is invalid. Without escapes the bytes stay in the text.
 */
function readString(): bool {
  // The position stays in locals while scanning: TurboFan loads and stores a global around every call.
  const start = pos;
  const stop = end;
  let at = start;
  let valid = true;
  while (true) {
    at = jsonPlainEnd(at, stop);
    if (at == stop) break;
    const c = load<u8>(at);
    if (c == 0x22) {
      stringPtr = start;
      stringLen = at - start;
      pos = at + 1;
      return valid || reject('invalid unicode code point');
    }
    pos = at;
    if (c == 0x5c) return readEscapedString(start);
    if (c < 0x20) {
      pos++;
      return reject('control character (\\u0000-\\u001F) found while parsing a string');
    }
    const length = utf8Sequence(at, stop);
    if (length < 0) valid = false;
    at += <usize>(length < 0 ? -length : length);
  }
  pos = stop;
  return reject('EOF while parsing a string');
}

/** failHere for bool-returning readers. */
function reject(message: string): bool {
  failHere(message);
  return false;
}

/**
 * The rest of a string from the first backslash at `pos`: decoded into a copy. Plain runs move a word at a
 * time: each word is stored whole and the write position then advances to its first byte that needs a look.
 */
function readEscapedString(start: usize): bool {
  // Escapes only shrink the text, so the rest of it bounds the decoded length; when that would grow memory,
  // the bytes up to the closing quote do. The block has a word of slack for the whole-word stores.
  const stop = end;
  let at = pos;
  let bound = stop - start;
  if (bound + 8 > arenaRoom()) bound = escapedStringEnd() - start;
  const out = alloc(bound + 8);
  copyMemory(out, start, at - start);
  let w = out + (at - start);
  let valid = true;
  while (at < stop) {
    const word = load<u64>(at);
    store<u64>(w, word);
    const found = jsonPlainMask(word);
    if (found == 0) {
      at += 8;
      w += 8;
      continue;
    }
    const skip = <usize>(ctz(found) >> 3);
    at += skip;
    w += skip;
    if (at >= stop) break;
    const c = load<u8>(at);
    if (c == 0x22) {
      stringPtr = out;
      stringLen = w - out;
      allocShrink(out, stringLen);
      pos = at + 1;
      return valid || reject('invalid unicode code point');
    }
    if (c == 0x5c) {
      // An escaped quote or backslash, the common escapes of JSON inside JSON, without the call.
      const e = at + 1 < stop ? load<u8>(at + 1) : 0;
      if (e == 0x22 || e == 0x5c) {
        store<u8>(w++, e);
        at += 2;
        continue;
      }
      pos = at + 1;
      w = readEscape(w);
      if (w == 0) return false;
      at = pos;
      continue;
    }
    if (c < 0x20) {
      pos = at + 1;
      return reject('control character (\\u0000-\\u001F) found while parsing a string');
    }
    let length = utf8Sequence(at, stop);
    if (length < 0) {
      valid = false;
      length = -length;
    }
    copyMemory(w, at, <usize>length);
    w += <usize>length;
    at += <usize>length;
  }
  pos = stop;
  return reject('EOF while parsing a string');
}

/** The closing quote of the string whose first backslash is at `pos`, or `end`. */
function escapedStringEnd(): usize {
  let close = pos;
  while (true) {
    close = jsonEscapeEnd(close, end);
    if (close >= end) return end;
    const c = load<u8>(close);
    if (c == 0x22) return close;
    close += c == 0x5c ? 2 : 1;
  }
  // biome-ignore lint/correctness/noUnreachable: asc wants a return after the loop
  return end;
}

/** Decodes the escape after a backslash, writing its UTF-8 at `w`; returns the address after it, or 0. */
function readEscape(w: usize): usize {
  if (pos == end) return <usize>failHere('EOF while parsing a string');
  const e = load<u8>(pos++);
  let byte: u8 = 0;
  switch (e) {
    case 0x22:
    case 0x5c:
    case 0x2f:
      byte = e;
      break;
    case 0x62:
      byte = 0x08;
      break;
    case 0x66:
      byte = 0x0c;
      break;
    case 0x6e:
      byte = 0x0a;
      break;
    case 0x72:
      byte = 0x0d;
      break;
    case 0x74:
      byte = 0x09;
      break;
    case 0x75:
      return readUnicodeEscape(w);
    default:
      return <usize>failHere('invalid escape');
  }
  store<u8>(w, byte);
  return w + 1;
}

/** `\uXXXX` (after the `u`), a surrogate pair taking two; writes the UTF-8 at `w`. */
function readUnicodeEscape(w: usize): usize {
  let code = readHex4();
  if (code < 0) return 0;
  if (code >= 0xdc00 && code <= 0xdfff) return <usize>failHere('lone leading surrogate in hex escape');
  if (code >= 0xd800 && code <= 0xdbff) {
    for (let i = 0; i < 2; i++) {
      if (pos == end) return <usize>failHere('EOF while parsing a string');
      if (load<u8>(pos++) != (i == 0 ? 0x5c : 0x75)) return <usize>failHere('unexpected end of hex escape');
    }
    const low = readHex4();
    if (low < 0) return 0;
    if (low < 0xdc00 || low > 0xdfff) return <usize>failHere('lone leading surrogate in hex escape');
    code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
  }
  return writeUtf8(w, <u32>code);
}

/** Four hex digits as a code unit, or -1 (message pending). */
function readHex4(): i32 {
  if (end - pos < 4) {
    pos = end;
    failHere('EOF while parsing a string');
    return -1;
  }
  let code = 0;
  for (let i = 0; i < 4; i++) {
    const c = <i32>load<u8>(pos + <usize>i);
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
    if (digit < 0) code = -1;
    else if (code >= 0) code = (code << 4) | digit;
  }
  pos += 4;
  if (code < 0) failHere('invalid escape');
  return code;
}

function writeUtf8(w: usize, code: u32): usize {
  if (code < 0x80) {
    store<u8>(w, <u8>code);
    return w + 1;
  }
  if (code < 0x800) {
    store<u8>(w, <u8>(0xc0 | (code >> 6)));
    store<u8>(w + 1, <u8>(0x80 | (code & 63)));
    return w + 2;
  }
  if (code < 0x10000) {
    store<u8>(w, <u8>(0xe0 | (code >> 12)));
    store<u8>(w + 1, <u8>(0x80 | ((code >> 6) & 63)));
    store<u8>(w + 2, <u8>(0x80 | (code & 63)));
    return w + 3;
  }
  store<u8>(w, <u8>(0xf0 | (code >> 18)));
  store<u8>(w + 1, <u8>(0x80 | ((code >> 12) & 63)));
  store<u8>(w + 2, <u8>(0x80 | ((code >> 6) & 63)));
  store<u8>(w + 3, <u8>(0x80 | (code & 63)));
  return w + 4;
}

// @ts-ignore: decorator
@inline function isDigitAt(at: usize): bool {
  return at < end && <u32>load<u8>(at) - 0x30 <= 9;
}

/**
 * A number: integers that fit i64 become integers, everything else (fractions, exponents, larger
 * integers, `-0`) floats.
 */
function parseNumber(): Value {
  const start = pos;
  const negative = load<u8>(pos) == 0x2d;
  if (negative) {
    pos++;
    if (pos == end) return failHere('EOF while parsing a value');
  }
  const intStart = pos;
  const first = load<u8>(pos++);
  let mantissa: u64 = <u64>first - 0x30;
  if (mantissa > 9) return failHere('invalid number');
  if (mantissa == 0) {
    if (isDigitAt(pos)) return failPeek('invalid number');
  } else {
    while (isDigitAt(pos)) mantissa = mantissa * 10 + (<u64>load<u8>(pos++) - 0x30);
  }
  const digits = pos - intStart;
  const c = pos < end ? load<u8>(pos) : 0;
  const isFraction = c == 0x2e;
  if (!isFraction && (c | 0x20) != 0x65) {
    // Up to 19 digits fit u64 exactly; the sign decides whether i64 holds the value.
    if (digits <= 19 && (negative ? mantissa <= <u64>i64.MIN_VALUE && mantissa != 0 : mantissa <= <u64>i64.MAX_VALUE)) {
      return newInt(negative ? -(<i64>mantissa) : <i64>mantissa);
    }
    scanStart();
    scanDigits(intStart, pos, false);
    return floatValue(negative, start);
  }
  scanStart();
  scanDigits(intStart, pos, false);
  if (isFraction) {
    pos++;
    const fraction = pos;
    pos = scanDigits(fraction, end, true);
    if (pos == fraction) return failPeek(pos == end ? 'EOF while parsing a value' : 'invalid number');
  }
  if (pos < end && (load<u8>(pos) | 0x20) == 0x65) {
    pos++;
    const exponent = pos;
    if (pos < end && (load<u8>(pos) == 0x2b || load<u8>(pos) == 0x2d)) pos++;
    if (pos == end) return failHere('EOF while parsing a value');
    if (!isDigitAt(pos)) {
      pos++;
      return failHere('invalid number');
    }
    pos = scanExponentPart(exponent, end);
  }
  return floatValue(negative, start);
}

/** The scanned number as a float value; `start` is where its text begins. */
function floatValue(negative: bool, start: usize): Value {
  const f = scanToFloat(negative, start, pos - start);
  if (!isFinite(f)) return failHere('number out of range');
  return newFloat(f);
}

// ---- writing -------------------------------------------------------------------------------------------

/** Compact JSON (serde_json's `to_string`): what `encode_json` returns and Vector's JSON codec writes. */
export function writeJson(b: Buffer, v: Value, depth: i32 = 0): void {
  if (tagOf(v) >= Tag.Array && !mayDescend(depth)) return bufferAscii(b, 'null');
  switch (tagOf(v)) {
    case Tag.Array: {
      bufferByte(b, 0x5b);
      for (let i: usize = 0, n = arrayLen(v); i < n; i++) {
        if (i > 0) bufferByte(b, 0x2c);
        writeJson(b, arrayGet(v, i), depth + 1);
      }
      return bufferByte(b, 0x5d);
    }
    case Tag.Object: {
      bufferByte(b, 0x7b);
      for (let i: usize = 0, n = objectLen(v); i < n; i++) {
        writeMember(b, i > 0, objectKeyPtr(v, i), objectKeyLen(v, i));
        const value = objectValue(v, i);
        if (tagOf(value) == Tag.Bytes) writeJsonString(b, bytesPtr(value), bytesLen(value));
        else writeJson(b, value, depth + 1);
      }
      return bufferByte(b, 0x7d);
    }
  }
  writeJsonScalar(b, v);
}

/** `"key":`, after a comma unless it is the first member, in one reservation when the key needs no escape. */
function writeMember(b: Buffer, comma: bool, key: usize, keyLen: usize): void {
  if (jsonPlainEnd(key, key + keyLen) != key + keyLen) {
    if (comma) bufferByte(b, 0x2c);
    writeJsonString(b, key, keyLen);
    return bufferByte(b, 0x3a);
  }
  const skip: usize = comma ? 1 : 0;
  const out = bufferReserve(b, keyLen + 3 + skip);
  store<u8>(out, 0x2c);
  store<u8>(out + skip, 0x22);
  copyMemory(out + skip + 1, key, keyLen);
  store<u16>(out + skip + 1 + keyLen, 0x3a22);
}

/** serde_json's pretty format: two-space indent, `"key": value`, empty containers as `[]` and `{}`. */
export function writeJsonPretty(b: Buffer, v: Value): void {
  writePretty(b, v, 0);
}

/** `writeJsonPretty` for a value nested `indent` levels deep (its lines after the first are indented). */
export function writePretty(b: Buffer, v: Value, indent: usize): void {
  const tag = tagOf(v);
  if (tag != Tag.Array && tag != Tag.Object) return writeJsonScalar(b, v);
  if (!mayDescend(<i32>indent)) return bufferAscii(b, 'null');
  const isArray = tag == Tag.Array;
  const n = isArray ? arrayLen(v) : objectLen(v);
  bufferByte(b, isArray ? 0x5b : 0x7b);
  if (n == 0) return bufferByte(b, isArray ? 0x5d : 0x7d);
  for (let i: usize = 0; i < n; i++) {
    bufferAscii(b, i > 0 ? ',\n' : '\n');
    writeIndent(b, indent + 1);
    if (isArray) {
      writePretty(b, arrayGet(v, i), indent + 1);
    } else {
      writeJsonString(b, objectKeyPtr(v, i), objectKeyLen(v, i));
      bufferAscii(b, ': ');
      writePretty(b, objectValue(v, i), indent + 1);
    }
  }
  bufferByte(b, 0x0a);
  writeIndent(b, indent);
  bufferByte(b, isArray ? 0x5d : 0x7d);
}

export function writeIndent(b: Buffer, depth: usize): void {
  for (let i: usize = 0; i < depth; i++) bufferAscii(b, '  ');
}

/** Everything but containers: timestamps as RFC 3339 strings, regexes as their pattern. */
function writeJsonScalar(b: Buffer, v: Value): void {
  switch (tagOf(v)) {
    case Tag.Null:
      return bufferAscii(b, 'null');
    case Tag.Bool:
      return bufferAscii(b, v == TRUE ? 'true' : 'false');
    case Tag.Int:
      return writeInt(b, intOf(v));
    case Tag.Float:
      return writeFloatJson(b, floatOf(v));
    case Tag.Bytes:
      return writeJsonString(b, bytesPtr(v), bytesLen(v));
    case Tag.Regex:
      return writeJsonString(b, regexPatternPtr(v), regexPatternLen(v));
    case Tag.Timestamp: {
      bufferByte(b, 0x22);
      writeRfc3339(b, timestampSeconds(v), timestampNanos(v));
      return bufferByte(b, 0x22);
    }
  }
}

/**
 * A JSON string with serde_json's escapes; invalid UTF-8 becomes U+FFFD. One scan: each byte that stops it
 * is an escape or the start of a multi-byte sequence, which stays in the run when valid.
 */
export function writeJsonString(b: Buffer, ptr: usize, len: usize): void {
  const stop = ptr + len;
  let at = jsonPlainEnd(ptr, stop);
  if (at == stop) {
    bufferQuoted(b, ptr, len);
    return;
  }
  bufferByte(b, 0x22);
  let run = ptr;
  while (at < stop) {
    const c = load<u8>(at);
    if (c < 0x80) {
      bufferBytes(b, run, at - run);
      writeEscape(b, c);
      run = ++at;
    } else {
      const length = utf8Sequence(at, stop);
      if (length > 0) {
        at += <usize>length;
      } else {
        bufferBytes(b, run, at - run);
        writeReplacement(b);
        at += <usize>-length;
        run = at;
      }
    }
    at = jsonPlainEnd(at, stop);
  }
  bufferBytes(b, run, stop - run);
  bufferByte(b, 0x22);
}

/** serde_json's escape of `"`, `\` or a control character. */
function writeEscape(b: Buffer, c: u8): void {
  bufferByte(b, 0x5c);
  switch (c) {
    case 0x22:
    case 0x5c:
      return bufferByte(b, c);
    case 0x08:
      return bufferByte(b, 0x62);
    case 0x0c:
      return bufferByte(b, 0x66);
    case 0x0a:
      return bufferByte(b, 0x6e);
    case 0x0d:
      return bufferByte(b, 0x72);
    case 0x09:
      return bufferByte(b, 0x74);
  }
  bufferAscii(b, 'u00');
  bufferByte(b, load<u8>(HEX_LOWER + (c >> 4)));
  bufferByte(b, load<u8>(HEX_LOWER + (c & 15)));
}

/** `v` as JSON text (compact or pretty) in a fresh byte string. */
export function encodeJson(v: Value, pretty: bool): Value {
  const b = bufferNew(128);
  if (pretty) writeJsonPretty(b, v);
  else writeJson(b, v);
  return newBytes(bufferData(b), bufferLength(b));
}
