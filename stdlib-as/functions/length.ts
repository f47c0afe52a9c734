// `length(value)`: bytes of a string, items of an array or top-level fields of an object.

import { Value, Tag, tagOf, newInt, bytesLen, arrayLen, objectLen } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

/** The length of a string, array or object; -1 (message pending) for any other kind. */
export function sizeOf(value: Value): isize {
  if (!expectKinds(value, KindBit.Bytes | KindBit.Array | KindBit.Object)) return -1;
  const tag = tagOf(value);
  return <isize>(tag == Tag.Bytes ? bytesLen(value) : tag == Tag.Array ? arrayLen(value) : objectLen(value));
}

export function fn_length(value: Value): Value {
  const size = sizeOf(value);
  return size < 0 ? 0 : newInt(<i64>size);
}
