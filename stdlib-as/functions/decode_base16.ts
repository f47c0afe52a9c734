// decode_base16(value): hex digits (either case, an even number of them) to bytes.

import { Value, bytesPtr, bytesLen, allocBytes } from '../value';
import { failWith } from '../error';
import { hexValue } from '../codec/hex';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

export function fn_decode_base16(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const ptr = bytesPtr(value);
  const len = bytesLen(value);
  if (len & 1) return failWith('unable to decode value from base16');
  const out = allocBytes(len >> 1);
  const o = bytesPtr(out);
  for (let i: usize = 0; i < len; i += 2) {
    const high = hexValue(load<u8>(ptr + i));
    const low = hexValue(load<u8>(ptr + i + 1));
    if ((high | low) < 0) return failWith('unable to decode value from base16');
    store<u8>(o + (i >> 1), <u8>((high << 4) | low));
  }
  return out;
}
