import { Value, intOf, bytesLen, newArray, arrayPush, bytesSlice } from '../value';
import { failWith } from '../error';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

/** `chunks(value, chunk_size)`: the bytes in pieces of `chunk_size` (the last may be shorter), cutting characters apart. */
export function fn_chunks(value: Value, chunkSize: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(chunkSize, KindBit.Integer)) return 0;
  const size = intOf(chunkSize);
  if (size < 1) return failWith('"chunk_size" must be at least 1 byte');
  const len = bytesLen(value);
  if (len == 0) return newArray(0);
  const step: usize = <u64>size < <u64>len ? <usize>size : len;
  const parts = newArray(len / step + 1);
  for (let at: usize = 0; at < len; at += step)
    arrayPush(parts, bytesSlice(value, at, at + step < len ? at + step : len));
  return parts;
}
