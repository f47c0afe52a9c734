// decode_percent(value): `%XX` sequences decoded (others kept as they are), the result read as lossy UTF-8.

import { Value, bytesPtr, bytesLen, allocBytes, newBytes } from '../value';
import { hexValue } from '../codec/hex';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

export function fn_decode_percent(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const ptr = bytesPtr(value);
  const len = bytesLen(value);
  const out = bytesPtr(allocBytes(len));
  let o = out;
  for (let i: usize = 0; i < len; i++) {
    const c = load<u8>(ptr + i);
    if (c == 0x25 && i + 2 < len) {
      const high = hexValue(load<u8>(ptr + i + 1));
      const low = hexValue(load<u8>(ptr + i + 2));
      if ((high | low) >= 0) {
        store<u8>(o++, <u8>((high << 4) | low));
        i += 2;
        continue;
      }
    }
    store<u8>(o++, c);
  }
  return lossy(newBytes(out, o - out));
}
