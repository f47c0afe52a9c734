// ip_pton(value): an IPv4 or IPv6 address as its 4 or 16 bytes in network order.

import { Value, newBytes } from '../value';
import { expectKinds } from './support/args';
import { ipScratch, readIp } from './support/ip_text';
import { KindBit } from '../../abi/wire/kinds';

export function fn_ip_pton(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const ip = ipScratch();
  const size = readIp(value, ip);
  return size == 0 ? 0 : newBytes(ip, <usize>size);
}
