// encode_base64(value, padding = true, charset = "standard"): the bytes in Base64.

import { Value, bytesPtr, bytesLen } from '../value';
import { bufferNew, bufferToBytes } from '../buffer';
import { writeBase64 } from '../codec/base64';
import { expectKinds, optionalBool } from './support/args';
import { urlSafeCharset } from './support/base64_charset';
import { KindBit } from '../../abi/wire/kinds';

export function fn_encode_base64(value: Value, padding: Value, charset: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const padded = optionalBool(padding, true);
  if (padded < 0) return 0;
  const urlSafe = urlSafeCharset(charset);
  if (urlSafe < 0) return 0;
  const len = bytesLen(value);
  const b = bufferNew(((len + 2) / 3) * 4);
  writeBase64(b, bytesPtr(value), len, urlSafe == 1, padded == 1);
  return bufferToBytes(b);
}
