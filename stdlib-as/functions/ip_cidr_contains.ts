// ip_cidr_contains(cidr, value): whether the address is in the CIDR block, or in any of an array of them
// (the first match ends the search). Blocks parse as the `cidr` crate's: an address and an optional prefix
// length, with no bits set past the prefix.

import { Value, bytesPtr, bytesLen, newBool, tagOf, Tag, arrayLen, arrayGet } from '../value';
import { failWith } from '../error';
import { parseIp } from '../ip';
import { expectKinds } from './support/args';
import { ipScratch, readIp } from './support/ip_text';
import { prefixMask } from './ip_subnet';
import { KindBit } from '../../abi/wire/kinds';

/** 1 when the block `cidr` contains the `size`-byte address at `ip`, 0 when not, -1 (message pending) when invalid. */
function contains(cidr: Value, ip: usize, size: i32): i32 {
  if (!expectKinds(cidr, KindBit.Bytes)) return -1;
  const ptr = bytesPtr(cidr);
  const len = bytesLen(cidr);
  let slash: usize = 0;
  while (slash < len && load<u8>(ptr + slash) != 0x2f) slash++;
  const network = ipScratch();
  const networkSize = parseIp(ptr, slash, network);
  if (networkSize == 0) {
    failWith("unable to parse CIDR: couldn't parse address in network: invalid IP address syntax");
    return -1;
  }
  let bits = networkSize * 8;
  if (slash < len) {
    if (slash + 1 == len || slash + 4 < len) return invalidLength();
    bits = 0;
    for (let i = slash + 1; i < len; i++) {
      const d = <i32>load<u8>(ptr + i) - 0x30;
      if (d < 0 || d > 9) return invalidLength();
      bits = bits * 10 + d;
    }
    if (bits > networkSize * 8) return invalidLength();
  }
  const mask = ipScratch();
  prefixMask(mask, networkSize, bits);
  let inside = networkSize == size;
  for (let i: usize = 0; i < <usize>networkSize; i++) {
    const m = load<u8>(mask + i);
    if ((load<u8>(network + i) & ~m) != 0) {
      failWith('unable to parse CIDR: host part of address was not zero');
      return -1;
    }
    if (inside && (load<u8>(ip + i) & m) != load<u8>(network + i)) inside = false;
  }
  return inside ? 1 : 0;
}

function invalidLength(): i32 {
  failWith("unable to parse CIDR: couldn't parse length in network: invalid length for network");
  return -1;
}

export function fn_ip_cidr_contains(cidr: Value, value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes) || !expectKinds(cidr, KindBit.Bytes | KindBit.Array)) return 0;
  const ip = ipScratch();
  const size = readIp(value, ip);
  if (size == 0) return 0;
  if (tagOf(cidr) != Tag.Array) {
    const found = contains(cidr, ip, size);
    return found < 0 ? 0 : newBool(found == 1);
  }
  for (let i: usize = 0; i < arrayLen(cidr); i++) {
    const found = contains(arrayGet(cidr, i), ip, size);
    if (found < 0) return 0;
    if (found == 1) return newBool(true);
  }
  return newBool(false);
}
