// ip_subnet(value, subnet): the network address of an IP address, for a netmask of its family or a `/N`
// prefix length.

import { Value, bytesPtr, bytesLen } from '../value';
import { fail, failWith } from '../error';
import { bufferNew, bufferAscii, bufferBytes, bufferData, bufferLength } from '../buffer';
import { parseIp } from '../ip';
import { expectKinds } from './support/args';
import { ipScratch, ipText, readIp } from './support/ip_text';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/** The decimal after `/`, or -1 when it is not a u32. */
function prefixLength(ptr: usize, len: usize): i64 {
  if (len < 2 || len > 11) return -1;
  let n: i64 = 0;
  for (let i: usize = 1; i < len; i++) {
    const d = <i32>load<u8>(ptr + i) - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n <= 0xffffffff ? n : -1;
}

/** Writes the mask of `bits` leading ones over `size` bytes at `mask`. */
export function prefixMask(mask: usize, size: i32, bits: i32): void {
  for (let i = 0; i < size; i++) {
    const ones = min(max(bits - i * 8, 0), 8);
    store<u8>(mask + <usize>i, <u8>(0xff00 >> ones));
  }
}

export function fn_ip_subnet(value: Value, subnet: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(subnet, KindBit.Bytes)) return 0;
  const ip = ipScratch();
  const size = readIp(value, ip);
  if (size == 0) return 0;
  const text = lossy(subnet);
  const ptr = bytesPtr(text);
  const len = bytesLen(text);
  const mask = ipScratch();
  if (len > 0 && load<u8>(ptr) == 0x2f) {
    const bits = prefixLength(ptr, len);
    if (bits < 0) {
      const b = bufferNew(len + 24);
      bufferBytes(b, ptr, len);
      bufferAscii(b, ' is not a valid subnet');
      return fail(bufferData(b), bufferLength(b));
    }
    if (size == 4 && bits > 32) return failWith('subnet cannot be greater than 32 for ipv4 addresses');
    if (size == 16 && bits > 128) return failWith('subnet cannot be greater than 128 for ipv6 addresses');
    prefixMask(mask, size, <i32>bits);
  } else {
    const maskSize = parseIp(ptr, len, mask);
    if (maskSize == 0) return failWith('unable to parse mask: invalid IP address syntax');
    if (maskSize != size) {
      return failWith(
        size == 16
          ? 'attempting to mask an ipv6 address with an ipv4 mask'
          : 'attempting to mask an ipv4 address with an ipv6 mask',
      );
    }
  }
  for (let i = 0; i < size; i++) store<u8>(ip + <usize>i, load<u8>(ip + <usize>i) & load<u8>(mask + <usize>i));
  return ipText(ip, size);
}
