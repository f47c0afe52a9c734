// `tally(value)`: how many times each string occurs in the array, as an object of counts. Every item must
// be a string; the error names the first that is not, in Rust's Debug form of VRL's `Value`.

import {
  Value,
  Tag,
  TRUE,
  tagOf,
  intOf,
  floatOf,
  timestampSeconds,
  timestampNanos,
  bytesPtr,
  bytesLen,
  regexPatternPtr,
  regexPatternLen,
  newObject,
  objectFind,
  objectInsertAt,
  objectValue,
  objectSetValueAt,
  objectLen,
  objectKeyPtr,
  objectKeyLen,
  arrayLen,
  arrayGet,
  newInt,
} from '../value';
import { fail } from '../error';
import { Buffer, bufferNew, bufferAscii, bufferByte, bufferData, bufferLength } from '../buffer';
import { writeInt, writeFloat } from '../codec/number';
import { writeRfc3339 } from '../codec/time';
import { writeDebugQuoted } from '../text';
import { expectKinds } from './support/args';
import { mayDescend } from '../depth';
import { KindBit } from '../../abi/wire/kinds';

export function fn_tally(value: Value): Value {
  if (!expectKinds(value, KindBit.Array)) return 0;
  const counts = newObject(8);
  for (let i: usize = 0, n = arrayLen(value); i < n; i++) {
    const item = arrayGet(value, i);
    if (tagOf(item) != Tag.Bytes) return failNotString(item);
    const at = objectFind(counts, bytesPtr(item), bytesLen(item));
    if (at >= 0) objectSetValueAt(counts, <usize>at, newInt(intOf(objectValue(counts, <usize>at)) + 1));
    else objectInsertAt(counts, <usize>(-at - 1), bytesPtr(item), bytesLen(item), newInt(1));
  }
  return counts;
}

function failNotString(item: Value): Value {
  const b = bufferNew(64);
  bufferAscii(b, 'all values must be strings, found: ');
  writeValueDebug(b, item);
  return fail(bufferData(b), bufferLength(b));
}

/** `{:?}` of VRL's `Value` enum: `Integer(1)`, `Bytes(b"x")`, `Array([Null])`, `Object({"a": Boolean(true)})`. */
function writeValueDebug(b: Buffer, v: Value, depth: i32 = 0): void {
  if (tagOf(v) >= Tag.Array && !mayDescend(depth)) return bufferAscii(b, '..');
  switch (tagOf(v)) {
    case Tag.Null:
      return bufferAscii(b, 'Null');
    case Tag.Bool:
      return bufferAscii(b, v == TRUE ? 'Boolean(true)' : 'Boolean(false)');
    case Tag.Int:
      bufferAscii(b, 'Integer(');
      writeInt(b, intOf(v));
      break;
    case Tag.Float:
      bufferAscii(b, 'Float(NotNan(');
      writeFloat(b, floatOf(v));
      bufferByte(b, 0x29);
      break;
    case Tag.Bytes:
      bufferAscii(b, 'Bytes(b');
      writeDebugQuoted(b, bytesPtr(v), bytesLen(v));
      break;
    case Tag.Timestamp:
      bufferAscii(b, 'Timestamp(');
      writeRfc3339(b, timestampSeconds(v), timestampNanos(v));
      break;
    case Tag.Regex:
      bufferAscii(b, 'Regex(');
      writeDebugQuoted(b, regexPatternPtr(v), regexPatternLen(v));
      break;
    case Tag.Array: {
      bufferAscii(b, 'Array([');
      for (let i: usize = 0, n = arrayLen(v); i < n; i++) {
        if (i > 0) bufferAscii(b, ', ');
        writeValueDebug(b, arrayGet(v, i), depth + 1);
      }
      bufferByte(b, 0x5d);
      break;
    }
    default: {
      bufferAscii(b, 'Object({');
      for (let i: usize = 0, n = objectLen(v); i < n; i++) {
        if (i > 0) bufferAscii(b, ', ');
        writeDebugQuoted(b, objectKeyPtr(v, i), objectKeyLen(v, i));
        bufferAscii(b, ': ');
        writeValueDebug(b, objectValue(v, i), depth + 1);
      }
      bufferByte(b, 0x7d);
    }
  }
  bufferByte(b, 0x29);
}
