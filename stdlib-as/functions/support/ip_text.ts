// What the ip_* functions share: reading an address argument with VRL's message, and writing a result.

import { Value, bytesPtr, bytesLen, alloc } from '../../value';
import { failWith } from '../../error';
import { bufferNew, bufferToBytes } from '../../buffer';
import { parseIp, writeIpv4, writeIpv6 } from '../../ip';

/** Size (4 or 16) of the address read into `out`, or 0 with Rust's `unable to parse IP address` message pending. */
export function readIp(value: Value, out: usize): i32 {
  const size = parseIp(bytesPtr(value), bytesLen(value), out);
  if (size == 0) failWith('unable to parse IP address: invalid IP address syntax');
  return size;
}

/** Scratch room for one address. */
export function ipScratch(): usize {
  return alloc(16);
}

/** The address of `size` bytes at `ip` as a string value. */
export function ipText(ip: usize, size: i32): Value {
  const b = bufferNew(size == 4 ? 15 : 45);
  if (size == 4) writeIpv4(b, ip);
  else writeIpv6(b, ip);
  return bufferToBytes(b);
}
