// The `charset` argument of encode_base64/decode_base64, checked at run time as VRL does.

import { Value, bytesPtr, bytesLen } from '../../value';
import { failWith } from '../../error';
import { equalsAscii } from '../../text';
import { expectKinds } from './args';
import { KindBit } from '../../../abi/wire/kinds';

/** 1 for `url_safe`, 0 for `standard` or absent, -1 (message pending) otherwise. */
export function urlSafeCharset(charset: Value): i32 {
  if (charset == 0) return 0;
  if (!expectKinds(charset, KindBit.Bytes)) return -1;
  if (equalsAscii(bytesPtr(charset), bytesLen(charset), 'standard')) return 0;
  if (equalsAscii(bytesPtr(charset), bytesLen(charset), 'url_safe')) return 1;
  failWith('unknown charset');
  return -1;
}
