import { Value, Tag, tagOf, bytesPtr, bytesLen, arrayLen, arrayGet } from '../value';
import { failWith } from '../error';
import { bufferNew, bufferToBytes } from '../buffer';
import { writeLossy } from '../codec/utf8';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

/** `join(value, separator = "")`: the array's strings (as lossy UTF-8) with the separator between them. */
export function fn_join(value: Value, separator: Value): Value {
  if (!expectKinds(value, KindBit.Array)) return 0;
  if (separator != 0 && !expectKinds(separator, KindBit.Bytes)) return 0;
  const n = arrayLen(value);
  let size: usize = 0;
  for (let i: usize = 0; i < n; i++) {
    const item = arrayGet(value, i);
    if (tagOf(item) != Tag.Bytes) return failWith('all array items must be strings');
    size += bytesLen(item);
  }
  const sepLen: usize = separator == 0 ? 0 : bytesLen(separator);
  const b = bufferNew(size + (n > 0 ? (n - 1) * sepLen : 0));
  for (let i: usize = 0; i < n; i++) {
    if (i > 0 && sepLen > 0) writeLossy(b, bytesPtr(separator), sepLen);
    const item = arrayGet(value, i);
    writeLossy(b, bytesPtr(item), bytesLen(item));
  }
  return bufferToBytes(b);
}
