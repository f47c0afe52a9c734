// decode_base64(value, charset = "standard"): Base64 to bytes; padding optional.

import { Value, bytesPtr, bytesLen, allocBytes, newBytes } from '../value';
import { failWith } from '../error';
import { decodeBase64 } from '../codec/base64';
import { expectKinds } from './support/args';
import { urlSafeCharset } from './support/base64_charset';
import { KindBit } from '../../abi/wire/kinds';

export function fn_decode_base64(value: Value, charset: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const urlSafe = urlSafeCharset(charset);
  if (urlSafe < 0) return 0;
  const len = bytesLen(value);
  const out = bytesPtr(allocBytes((len / 4) * 3 + 2));
  const decoded = decodeBase64(bytesPtr(value), len, urlSafe == 1, out);
  if (decoded < 0) return failWith('unable to decode value from base64');
  return newBytes(out, <usize>decoded);
}
