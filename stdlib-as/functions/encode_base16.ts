// encode_base16(value): the bytes as lowercase hex.

import { Value, bytesPtr, bytesLen, allocBytes } from '../value';
import { HEX_LOWER } from '../codec/hex';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_encode_base16(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const ptr = bytesPtr(value);
  const len = bytesLen(value);
  const out = allocBytes(len << 1);
  const o = bytesPtr(out);
  for (let i: usize = 0; i < len; i++) {
    const byte = load<u8>(ptr + i);
    store<u8>(o + (i << 1), load<u8>(HEX_LOWER + (byte >> 4)));
    store<u8>(o + (i << 1) + 1, load<u8>(HEX_LOWER + (byte & 15)));
  }
  return out;
}
