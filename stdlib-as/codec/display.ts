// VRL's `Display` of values: what the `vrl` CLI prints for a result (`{ "a": [1, 2.0] }`, `t'…'`, `r'…'`).

import {
  Value,
  Tag,
  tagOf,
  intOf,
  floatOf,
  timestampSeconds,
  timestampNanos,
  bytesPtr,
  bytesLen,
  regexPatternPtr,
  regexPatternLen,
  arrayLen,
  arrayGet,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  objectValue,
  TRUE,
} from '../value';
import { Buffer, bufferReserve, bufferByte, bufferBytes, bufferAscii, bufferQuoted } from '../buffer';
import { writeInt, writeFloat } from './number';
import { writeRfc3339 } from './time';
import { writeLossy } from './utf8';
import { displayPlainEnd, displayEscapeEnd } from './scan';
import { mayDescend } from '../depth';

/** VRL's display of `v`, nested `depth` levels deep (containers past MAX_VALUE_DEPTH show as null). */
export function writeDisplay(b: Buffer, v: Value, depth: i32 = 0): void {
  if (tagOf(v) >= Tag.Array && !mayDescend(depth)) return bufferAscii(b, 'null');
  switch (tagOf(v)) {
    case Tag.Null:
      return bufferAscii(b, 'null');
    case Tag.Bool:
      return bufferAscii(b, v == TRUE ? 'true' : 'false');
    case Tag.Int:
      return writeInt(b, intOf(v));
    case Tag.Float:
      return writeFloat(b, floatOf(v));
    case Tag.Bytes:
      return writeDisplayString(b, bytesPtr(v), bytesLen(v));
    case Tag.Timestamp:
      bufferAscii(b, "t'");
      writeRfc3339(b, timestampSeconds(v), timestampNanos(v));
      return bufferByte(b, 0x27);
    case Tag.Regex:
      bufferAscii(b, "r'");
      bufferBytes(b, regexPatternPtr(v), regexPatternLen(v));
      return bufferByte(b, 0x27);
    case Tag.Array: {
      bufferByte(b, 0x5b);
      for (let i: usize = 0, n = arrayLen(v); i < n; i++) {
        if (i > 0) bufferAscii(b, ', ');
        writeDisplay(b, arrayGet(v, i), depth + 1);
      }
      return bufferByte(b, 0x5d);
    }
    case Tag.Object: {
      const n = objectLen(v);
      if (n == 0) return bufferAscii(b, '{}');
      for (let i: usize = 0; i < n; i++) {
        writeDisplayKey(b, i == 0 ? 0x7b : 0x2c, objectKeyPtr(v, i), objectKeyLen(v, i));
        writeDisplay(b, objectValue(v, i), depth + 1);
      }
      return bufferAscii(b, ' }');
    }
  }
}

/** `{ "key": ` (`lead` `{`) or `, "key": ` (`lead` `,`): VRL quotes keys without escaping them. */
function writeDisplayKey(b: Buffer, lead: u8, ptr: usize, len: usize): void {
  const open = bufferReserve(b, 3);
  store<u8>(open, lead);
  store<u8>(open, 0x20, 1);
  store<u8>(open, 0x22, 2);
  writeLossy(b, ptr, len);
  const close = bufferReserve(b, 3);
  store<u8>(close, 0x22);
  store<u8>(close, 0x3a, 1);
  store<u8>(close, 0x20, 2);
}

/**
 * A string as VRL displays it: quoted, lossy UTF-8 with `\`, `"` and newline escaped (every other character,
 * tabs and control characters included, stays raw).
 */
function writeDisplayString(b: Buffer, ptr: usize, len: usize): void {
  const end = ptr + len;
  const plainEnd = displayPlainEnd(ptr, end);
  if (plainEnd == end) {
    bufferQuoted(b, ptr, len);
    return;
  }
  bufferByte(b, 0x22);
  let run = ptr;
  for (let at = displayEscapeEnd(plainEnd, end); at < end; at = displayEscapeEnd(at, end)) {
    writeLossy(b, run, at - run);
    const c = load<u8>(at);
    bufferByte(b, 0x5c);
    bufferByte(b, c == 0x0a ? 0x6e : c);
    run = ++at;
  }
  writeLossy(b, run, end - run);
  bufferByte(b, 0x22);
}
