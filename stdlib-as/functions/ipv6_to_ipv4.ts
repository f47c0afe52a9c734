// ipv6_to_ipv4(value): an IPv4-compatible (`::a.b.c.d`) or IPv4-mapped (`::ffff:a.b.c.d`) IPv6 address as
// IPv4 (Rust's `Ipv6Addr::to_ipv4`); IPv4 addresses unchanged; other IPv6 addresses fail.

import { Value, bytesPtr, bytesLen } from '../value';
import { fail } from '../error';
import { bufferNew, bufferAscii, bufferBytes, bufferData, bufferLength } from '../buffer';
import { expectKinds } from './support/args';
import { ipScratch, ipText, readIp } from './support/ip_text';
import { KindBit } from '../../abi/wire/kinds';

export function fn_ipv6_to_ipv4(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const ip = ipScratch();
  const size = readIp(value, ip);
  if (size == 0) return 0;
  if (size == 4) return ipText(ip, 4);
  const marker = load<u16>(ip + 10);
  if (load<u64>(ip) != 0 || load<u16>(ip + 8) != 0 || (marker != 0 && marker != 0xffff)) {
    const text = ipText(ip, 16);
    const b = bufferNew(80);
    bufferAscii(b, 'IPV6 address ');
    bufferBytes(b, bytesPtr(text), bytesLen(text));
    bufferAscii(b, ' is not compatible with IPV4');
    return fail(bufferData(b), bufferLength(b));
  }
  return ipText(ip + 12, 4);
}
