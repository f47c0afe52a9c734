// ip_ntop(value): 4 or 16 bytes in network order as the IPv4 or IPv6 address's text.

import { Value, bytesPtr, bytesLen } from '../value';
import { failWith } from '../error';
import { expectKinds } from './support/args';
import { ipText } from './support/ip_text';
import { KindBit } from '../../abi/wire/kinds';

export function fn_ip_ntop(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const len = bytesLen(value);
  if (len != 4 && len != 16) return failWith('"value" must be of length 4 or 16 bytes');
  return ipText(bytesPtr(value), <i32>len);
}
