import { Value, bytesPtr, bytesLen, newInt } from '../value';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/** `strlen(value)`: the number of Unicode scalar values (each invalid UTF-8 sequence counts as one U+FFFD). */
export function fn_strlen(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const len = bytesLen(text);
  let count: i64 = 0;
  for (let i: usize = 0; i < len; i++) if ((load<u8>(ptr + i) & 0xc0) != 0x80) count++;
  return newInt(count);
}
