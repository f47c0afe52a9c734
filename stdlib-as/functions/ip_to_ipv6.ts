// ip_to_ipv6(value): an IPv4 address as IPv4-mapped IPv6 (`::ffff:a.b.c.d`); IPv6 addresses unchanged.

import { Value } from '../value';
import { expectKinds } from './support/args';
import { ipScratch, ipText, readIp } from './support/ip_text';
import { KindBit } from '../../abi/wire/kinds';

export function fn_ip_to_ipv6(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const ip = ipScratch();
  const size = readIp(value, ip);
  if (size == 0) return 0;
  if (size == 4) {
    store<u32>(ip + 12, load<u32>(ip));
    store<u64>(ip, 0);
    store<u32>(ip + 8, 0xffff0000);
  }
  return ipText(ip, 16);
}
