// ip_aton(value): an IPv4 address as its 32-bit big-endian integer.

import { Value, bytesPtr, bytesLen, newInt } from '../value';
import { failWith } from '../error';
import { parseIpv4 } from '../ip';
import { expectKinds } from './support/args';
import { ipScratch } from './support/ip_text';
import { KindBit } from '../../abi/wire/kinds';

export function fn_ip_aton(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const ip = ipScratch();
  if (!parseIpv4(bytesPtr(value), bytesLen(value), ip)) {
    return failWith('unable to parse IPv4 address: invalid IPv4 address syntax');
  }
  return newInt(<i64>bswap<u32>(load<u32>(ip)));
}
