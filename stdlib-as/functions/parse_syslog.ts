// `parse_syslog(value)`: RFC 5424 or, failing that, RFC 3164 (BSD) syslog, read as loosely as VRL's
// syslog_loose reads it. The result holds the header fields VRL reports, the message, and each structured
// data element as an object under its id (later elements and parameters win over earlier ones and over
// header fields). Text values point into the input.
//
// Whitespace is Unicode White_Space (Rust's `char::is_whitespace`); nom's `space0`/`space1` are spaces and
// tabs.

import {
  Value,
  newObject,
  objectSet,
  objectLen,
  objectInsertAt,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  newBytes,
  newInt,
  bytesPtr,
  bytesLen,
} from '../value';
import { failWith } from '../error';
import { bufferNew, bufferByte, bufferBytes, bufferToBytes } from '../buffer';
import { whitespaceLength } from '../text';
import { parseRfc3339, parseBsdTimestamp, parsedTimestamp } from '../time-parse';
import { expectKinds } from './support/args';
import { lossy, trimStart, trimEnd } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

const KEY_MESSAGE = memory.data<u8>([0x6d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65]); // message
const KEY_HOSTNAME = memory.data<u8>([0x68, 0x6f, 0x73, 0x74, 0x6e, 0x61, 0x6d, 0x65]); // hostname
const KEY_SEVERITY = memory.data<u8>([0x73, 0x65, 0x76, 0x65, 0x72, 0x69, 0x74, 0x79]); // severity
const KEY_FACILITY = memory.data<u8>([0x66, 0x61, 0x63, 0x69, 0x6c, 0x69, 0x74, 0x79]); // facility
const KEY_VERSION = memory.data<u8>([0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e]); // version
const KEY_APPNAME = memory.data<u8>([0x61, 0x70, 0x70, 0x6e, 0x61, 0x6d, 0x65]); // appname
const KEY_MSGID = memory.data<u8>([0x6d, 0x73, 0x67, 0x69, 0x64]); // msgid
const KEY_TIMESTAMP = memory.data<u8>([0x74, 0x69, 0x6d, 0x65, 0x73, 0x74, 0x61, 0x6d, 0x70]); // timestamp
const KEY_PROCID = memory.data<u8>([0x70, 0x72, 0x6f, 0x63, 0x69, 0x64]); // procid

// kern user mail daemon auth syslog lpr news uucp cron authpriv ftp ntp audit alert clockd local0 … local7
const FACILITY_NAMES = memory.data<u8>([
  0x6b, 0x65, 0x72, 0x6e, 0x75, 0x73, 0x65, 0x72, 0x6d, 0x61, 0x69, 0x6c, 0x64, 0x61, 0x65, 0x6d, 0x6f, 0x6e, 0x61,
  0x75, 0x74, 0x68, 0x73, 0x79, 0x73, 0x6c, 0x6f, 0x67, 0x6c, 0x70, 0x72, 0x6e, 0x65, 0x77, 0x73, 0x75, 0x75, 0x63,
  0x70, 0x63, 0x72, 0x6f, 0x6e, 0x61, 0x75, 0x74, 0x68, 0x70, 0x72, 0x69, 0x76, 0x66, 0x74, 0x70, 0x6e, 0x74, 0x70,
  0x61, 0x75, 0x64, 0x69, 0x74, 0x61, 0x6c, 0x65, 0x72, 0x74, 0x63, 0x6c, 0x6f, 0x63, 0x6b, 0x64, 0x6c, 0x6f, 0x63,
  0x61, 0x6c, 0x30, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x31, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x32, 0x6c, 0x6f, 0x63, 0x61,
  0x6c, 0x33, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x34, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x35, 0x6c, 0x6f, 0x63, 0x61, 0x6c,
  0x36, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x37,
]);
const FACILITY_ENDS: StaticArray<u8> = [
  4, 8, 12, 18, 22, 28, 31, 35, 39, 43, 51, 54, 57, 62, 67, 73, 79, 85, 91, 97, 103, 109, 115, 121,
];
// emerg alert crit err warning notice info debug
const SEVERITY_NAMES = memory.data<u8>([
  0x65, 0x6d, 0x65, 0x72, 0x67, 0x61, 0x6c, 0x65, 0x72, 0x74, 0x63, 0x72, 0x69, 0x74, 0x65, 0x72, 0x72, 0x77, 0x61,
  0x72, 0x6e, 0x69, 0x6e, 0x67, 0x6e, 0x6f, 0x74, 0x69, 0x63, 0x65, 0x69, 0x6e, 0x66, 0x6f, 0x64, 0x65, 0x62, 0x75,
  0x67,
]);
const SEVERITY_ENDS: StaticArray<u8> = [5, 10, 14, 17, 24, 30, 34, 39];

const HYPHEN: u8 = 0x2d;
const COLON: u8 = 0x3a;
const OPEN: u8 = 0x5b;
const CLOSE: u8 = 0x5d;
const EQUALS: u8 = 0x3d;
const QUOTE: u8 = 0x22;
const BACKSLASH: u8 = 0x5c;

// ---- what the parse found (reset per call) --------------------------------------------------------------

let priority: i32 = -1;
let version: i64 = -1;
/** Field addresses are 0 when the field is absent (nil, `-`); a present field may be empty. */
let hostPtr: usize = 0;
let hostLen: usize = 0;
let appPtr: usize = 0;
let appLen: usize = 0;
let procPtr: usize = 0;
let procLen: usize = 0;
let msgidPtr: usize = 0;
let msgidLen: usize = 0;
/** Structured data elements by id. */
let elements: Value = 0;
/** The last tag scanned: its name, and its pid (address 0 when it has none). */
let tagPtr: usize = 0;
let tagLen: usize = 0;
let pidPtr: usize = 0;
let pidLen: usize = 0;
/** End of the last word scanned by `spacedWord`. */
let wordStop: usize = 0;

function reset(): void {
  priority = -1;
  version = -1;
  hostPtr = appPtr = procPtr = msgidPtr = 0;
  hostLen = appLen = procLen = msgidLen = 0;
  elements = newObject(4);
}

export function fn_parse_syslog(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const text = lossy(value);
  const start = trimStart(bytesPtr(text), bytesPtr(text) + bytesLen(text));
  const end = trimEnd(start, bytesPtr(text) + bytesLen(text));
  reset();
  let message = parse5424(start, end);
  if (message == 0) {
    reset();
    message = parse3164(start, end);
  }
  if (message == 0) return failWith('unable to parse input as valid syslog message');
  return result(message, end);
}

// ---- characters -----------------------------------------------------------------------------------------

// @ts-ignore: decorator
@inline function isWhitespace(at: usize, end: usize): bool {
  // ASCII without the call: most bytes of a syslog line.
  const c = load<u8>(at);
  if (c < 0x80) return c == 0x20 || <u32>c - 0x09 < 5;
  return whitespaceLength(at, end) != 0;
}

// @ts-ignore: decorator
@inline function isDigit(c: u8): bool {
  return <u32>c - 0x30 < 10;
}

/** Past spaces and tabs (nom's `space0`). */
function spaces(at: usize, end: usize): usize {
  while (at < end && (load<u8>(at) == 0x20 || load<u8>(at) == 0x09)) at++;
  return at;
}

/** End of the run of non-whitespace at `at`. */
function wordEnd(at: usize, end: usize): usize {
  while (at < end && !isWhitespace(at, end)) at++;
  return at;
}

/** After at least one space or tab, a word: returns its start (its end in wordStop), or 0. */
function spacedWord(at: usize, end: usize): usize {
  const start = spaces(at, end);
  if (start == at) return 0;
  wordStop = wordEnd(start, end);
  return wordStop > start ? start : 0;
}

// @ts-ignore: decorator
@inline function isNil(ptr: usize, len: usize): bool {
  return len == 1 && load<u8>(ptr) == HYPHEN;
}

// ---- RFC 5424 -------------------------------------------------------------------------------------------

/** An optional `<pri>` (0–255) at `at`; returns the position after it. */
function parsePriority(at: usize, end: usize): usize {
  if (at >= end || load<u8>(at) != 0x3c) return at;
  let p = at + 1;
  let n: i32 = 0;
  while (p < end && isDigit(load<u8>(p)) && n <= 255) n = n * 10 + <i32>(load<u8>(p++) - 0x30);
  if (p == at + 1 || n > 255 || p >= end || load<u8>(p) != 0x3e) return at;
  priority = n;
  return p + 1;
}

/**
 * `<pri>version timestamp hostname appname procid msgid sd message`, `-` for an absent field, the
 * timestamp RFC 3339. Returns the start of the message, or 0.
 */
function parse5424(start: usize, end: usize): usize {
  let p = parsePriority(start, end);
  const digits = p;
  let n: i64 = 0;
  while (p < end && isDigit(load<u8>(p)) && n <= <i64>u32.MAX_VALUE) n = n * 10 + <i64>(load<u8>(p++) - 0x30);
  if (p == digits || n > <i64>u32.MAX_VALUE) return 0;
  version = n;
  const stamp = spacedWord(p, end);
  if (stamp == 0 || !parseRfc3339(stamp, wordStop)) return 0;
  const host = spacedWord(wordStop, end);
  if (host == 0) return 0;
  const hostEnd = wordStop;
  const app = spacedWord(hostEnd, end);
  if (app == 0) return 0;
  const appEnd = wordStop;
  const proc = spacedWord(appEnd, end);
  if (proc == 0) return 0;
  const procEnd = wordStop;
  const msgid = spacedWord(procEnd, end);
  if (msgid == 0) return 0;
  const msgidEnd = wordStop;
  const data = spaces(msgidEnd, end);
  if (data == msgidEnd) return 0;
  p = parseStructuredData(data, end);
  if (p == 0) return 0;
  if (!isNil(host, hostEnd - host)) {
    hostPtr = host;
    hostLen = hostEnd - host;
  }
  if (!isNil(app, appEnd - app)) {
    appPtr = app;
    appLen = appEnd - app;
  }
  if (!isNil(proc, procEnd - proc)) {
    procPtr = proc;
    procLen = procEnd - proc;
  }
  if (!isNil(msgid, msgidEnd - msgid)) {
    msgidPtr = msgid;
    msgidLen = msgidEnd - msgid;
  }
  return spaces(p, end);
}

// ---- RFC 3164 -------------------------------------------------------------------------------------------

/**
 * `<pri>timestamp hostname tag[pid]: sd message`, where the timestamp is BSD (`Mmm dd hh:mm:ss`, local
 * time) or RFC 3339, and hostname and tag are each optional. Returns the start of the message, or 0.
 */
function parse3164(start: usize, end: usize): usize {
  let p = spaces(parsePriority(start, end), end);
  if (p < end && isDigit(load<u8>(p))) {
    const stampEnd = wordEnd(p, end);
    if (!parseRfc3339(p, stampEnd)) return 0;
    p = stampEnd;
  } else {
    p = parseBsdTimestamp(p, end);
    if (p == 0) return 0;
  }
  // The header fields follow one space; after anything else the rest is the message.
  if (p + 1 < end && load<u8>(p) == 0x20 && !isWhitespace(p + 1, end)) p = parseHostAndTag(p + 1, end);
  p = spaces(p, end);
  const afterData = parseStructuredData(p, end);
  return afterData != 0 ? spaces(afterData, end) : p;
}

/** The hostname and tag, as syslog_loose tells them apart; returns the position after them. */
function parseHostAndTag(at: usize, end: usize): usize {
  const word = wordEnd(at, end);
  const colon = load<u8>(word - 1) == COLON;
  // A hostname, one space, a tag.
  if (!colon && word < end && load<u8>(word) == 0x20) {
    const tagEnd = parseTag(word + 1, end);
    if (tagEnd != 0) {
      // A nil tag (`host -`) leaves out the hostname too.
      if (pidPtr == 0 && isNil(tagPtr, tagLen)) return tagEnd;
      if (!isNil(at, word - at)) {
        hostPtr = at;
        hostLen = word - at;
      }
      takeTag();
      return tagEnd;
    }
  }
  // A tag with a pid, and no hostname.
  const pidEnd = parsePidTag(at, end);
  if (pidEnd != 0) {
    const after = pidEnd < end && load<u8>(pidEnd) == COLON ? pidEnd + 1 : pidEnd;
    if (after == end || isWhitespace(after, end)) {
      takeTag();
      return after;
    }
  }
  // A hostname alone, less one trailing colon.
  const length = word - at - (colon ? 1 : 0);
  if (!isNil(at, word - at) && length > 0) {
    hostPtr = at;
    hostLen = length;
  }
  return word;
}

function takeTag(): void {
  appPtr = tagPtr;
  appLen = tagLen;
  procPtr = pidPtr;
  procLen = pidLen;
}

/** `name[pid]` (the name may be empty) into tagPtr/pidPtr; returns the position after `]`, or 0. */
function parsePidTag(at: usize, end: usize): usize {
  let p = at;
  while (p < end && !isWhitespace(p, end) && load<u8>(p) != OPEN && load<u8>(p) != COLON) p++;
  if (p >= end || load<u8>(p) != OPEN) return 0;
  const pid = p + 1;
  let q = pid;
  while (q < end && !isWhitespace(q, end) && load<u8>(q) != CLOSE) q++;
  if (q == pid || q >= end) return 0;
  tagPtr = at;
  tagLen = p - at;
  pidPtr = pid;
  pidLen = q - pid;
  return q + 1;
}

/**
 * A tag: `name[pid]` followed by a colon, whitespace or the end, else a word up to whitespace or a colon;
 * then an optional colon. Returns the position after it, or 0.
 */
function parseTag(at: usize, end: usize): usize {
  const pidEnd = parsePidTag(at, end);
  if (pidEnd != 0 && (pidEnd == end || load<u8>(pidEnd) == COLON || isWhitespace(pidEnd, end))) {
    return pidEnd < end && load<u8>(pidEnd) == COLON ? pidEnd + 1 : pidEnd;
  }
  let p = at;
  while (p < end && !isWhitespace(p, end) && load<u8>(p) != COLON) p++;
  if (p == at) return 0;
  tagPtr = at;
  tagLen = p - at;
  pidPtr = 0;
  pidLen = 0;
  return p < end && load<u8>(p) == COLON ? p + 1 : p;
}

// ---- structured data ------------------------------------------------------------------------------------

/**
 * `-`, or one or more adjacent `[id name="value" ...]` elements into `elements`. An element that is not
 * well formed up to its first `]` is skipped. Returns the position after the data, or 0.
 */
function parseStructuredData(at: usize, end: usize): usize {
  if (at < end && load<u8>(at) == HYPHEN) return at + 1;
  let p = at;
  while (p < end && load<u8>(p) == OPEN) {
    let next = parseElement(p, end);
    if (next == 0) {
      let close = p + 1;
      while (close < end && load<u8>(close) != CLOSE) close++;
      if (close >= end) break;
      next = close + 1;
    }
    p = next;
  }
  return p > at ? p : 0;
}

/** One well-formed element at `at` (its `[`); returns the position after its `]`, or 0. */
function parseElement(at: usize, end: usize): usize {
  const id = at + 1;
  let p = id;
  while (p < end && !isWhitespace(p, end) && load<u8>(p) != CLOSE && load<u8>(p) != EQUALS) p++;
  if (p == id) return 0;
  const idLen = p - id;
  const params = newObject(4);
  p = spaces(p, end);
  let next = parseParam(p, end, params);
  while (next != 0) {
    p = next;
    const separated = spaces(p, end);
    next = separated > p ? parseParam(separated, end, params) : 0;
  }
  if (p >= end || load<u8>(p) != CLOSE) return 0;
  objectSet(elements, id, idLen, params);
  return p + 1;
}

/** `name="value"` (spaces allowed after `=`) into `params`; returns the position after it, or 0. */
function parseParam(at: usize, end: usize, params: Value): usize {
  let p = at;
  while (p < end && load<u8>(p) != EQUALS && load<u8>(p) != CLOSE) p++;
  if (p == at || p >= end || load<u8>(p) != EQUALS) return 0;
  const nameLen = p - at;
  p = spaces(p + 1, end);
  if (p >= end || load<u8>(p) != QUOTE) return 0;
  const text = ++p;
  let escaped = false;
  while (true) {
    if (p >= end) return 0;
    const c = load<u8>(p);
    if (c == QUOTE) break;
    if (c == BACKSLASH) {
      if (p + 1 >= end) return 0;
      escaped = true;
      p += 2;
    } else {
      p++;
    }
  }
  objectSet(params, at, nameLen, escaped ? unescape(text, p) : newBytes(text, p - text));
  return p + 1;
}

/** A parameter value with `\\`, `\"`, `\]` and `\n` unescaped; other backslashes stay. */
function unescape(at: usize, end: usize): Value {
  const b = bufferNew(end - at);
  while (at < end) {
    const c = load<u8>(at);
    if (c != BACKSLASH) {
      bufferByte(b, c);
      at++;
      continue;
    }
    const next = load<u8>(at + 1);
    if (next == BACKSLASH || next == QUOTE || next == CLOSE) bufferByte(b, next);
    else if (next == 0x6e) bufferByte(b, 0x0a);
    else bufferBytes(b, at, 2);
    at += 2;
  }
  return bufferToBytes(b);
}

// ---- the result -----------------------------------------------------------------------------------------

/** The fields in key order (each insertion lands at the end), then the elements, which replace fields. */
function result(message: usize, end: usize): Value {
  const o = newObject(9 + objectLen(elements));
  // The fixed fields in key order, each appended; structured data elements are then set among them.
  if (appPtr != 0) append(o, KEY_APPNAME, 7, newBytes(appPtr, appLen));
  if (priority >= 0 && priority >> 3 < 24) {
    append(o, KEY_FACILITY, 8, tableName(FACILITY_NAMES, FACILITY_ENDS, priority >> 3));
  }
  if (hostPtr != 0) append(o, KEY_HOSTNAME, 8, newBytes(hostPtr, hostLen));
  append(o, KEY_MESSAGE, 7, newBytes(message, end - message));
  if (msgidPtr != 0) append(o, KEY_MSGID, 5, newBytes(msgidPtr, msgidLen));
  if (procPtr != 0) append(o, KEY_PROCID, 6, procid(procPtr, procLen));
  if (priority >= 0) append(o, KEY_SEVERITY, 8, tableName(SEVERITY_NAMES, SEVERITY_ENDS, priority & 7));
  append(o, KEY_TIMESTAMP, 9, parsedTimestamp());
  if (version >= 0) append(o, KEY_VERSION, 7, newInt(version));
  for (let i: usize = 0, n = objectLen(elements); i < n; i++) {
    objectSet(o, objectKeyPtr(elements, i), objectKeyLen(elements, i), objectValue(elements, i));
  }
  return o;
}

/** Adds an entry after the last of `o`, whose keys all sort before `key`. */
// @ts-ignore: decorator
@inline function append(o: Value, key: usize, keyLen: usize, v: Value): void {
  objectInsertAt(o, objectLen(o), key, keyLen, v);
}

/** Entry `index` of a table of names stored end to end. */
function tableName(names: usize, ends: StaticArray<u8>, index: i32): Value {
  const start: usize = index == 0 ? 0 : <usize>unchecked(ends[index - 1]);
  return newBytes(names + start, <usize>unchecked(ends[index]) - start);
}

/** A process id that reads as an i32 (Rust's `parse::<i32>`) is an integer, anything else text. */
function procid(ptr: usize, len: usize): Value {
  const end = ptr + len;
  let p = ptr;
  const sign = load<u8>(p);
  if (sign == 0x2b || sign == 0x2d) p++;
  if (p == end) return newBytes(ptr, len);
  let n: i64 = 0;
  for (; p < end; p++) {
    if (!isDigit(load<u8>(p))) return newBytes(ptr, len);
    n = n * 10 + <i64>(load<u8>(p) - 0x30);
    if (n > 0x8000_0000) return newBytes(ptr, len);
  }
  if (sign == 0x2d) n = -n;
  return n > <i64>i32.MAX_VALUE ? newBytes(ptr, len) : newInt(n);
}
