import { Value, Tag, tagOf, intOf, bytesLen, arrayLen, arrayGet, arrayPush, newArray, share } from '../value';
import { fail, failWith } from '../error';
import { bufferNew, bufferAscii, bufferData, bufferLength } from '../buffer';
import { writeInt } from '../codec/number';
import { expectKinds } from './support/args';
import { bytesSlice } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/**
 * `slice(value, start, end = length)`: bytes of a string or items of an array; negative positions count
 * from the end and an `end` past the end stops there.
 */
export function fn_slice(value: Value, start: Value, end: Value): Value {
  if (!expectKinds(value, KindBit.Bytes | KindBit.Array) || !expectKinds(start, KindBit.Integer)) return 0;
  if (end != 0 && !expectKinds(end, KindBit.Integer)) return 0;
  const isBytes = tagOf(value) == Tag.Bytes;
  const len = <i64>(isBytes ? bytesLen(value) : arrayLen(value));
  let from = intOf(start);
  if (from < 0) from += len;
  let to = end == 0 ? len : intOf(end);
  if (to < 0) to += len;
  if (from < 0 || from > len) {
    const b = bufferNew(48);
    bufferAscii(b, '"start" must be between "');
    writeInt(b, -len);
    bufferAscii(b, '" and "');
    writeInt(b, len);
    bufferAscii(b, '"');
    return fail(bufferData(b), bufferLength(b));
  }
  if (to < from) return failWith('"end" must be greater or equal to "start"');
  if (to > len) to = len;
  if (isBytes) return bytesSlice(value, <usize>from, <usize>to);
  const out = newArray(<usize>(to - from));
  for (let i = <usize>from; i < <usize>to; i++) arrayPush(out, share(arrayGet(value, i)));
  return out;
}
