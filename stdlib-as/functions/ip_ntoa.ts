// ip_ntoa(value): a 32-bit integer as the IPv4 address it is in network order.

import { Value, intOf } from '../value';
import { failWith } from '../error';
import { expectKinds } from './support/args';
import { ipScratch, ipText } from './support/ip_text';
import { KindBit } from '../../abi/wire/kinds';

export function fn_ip_ntoa(value: Value): Value {
  if (!expectKinds(value, KindBit.Integer)) return 0;
  const n = intOf(value);
  if (n < 0 || n > 0xffffffff)
    return failWith('cannot convert to u32: out of range integral type conversion attempted');
  const ip = ipScratch();
  store<u32>(ip, bswap<u32>(<u32>n));
  return ipText(ip, 4);
}
