// `uuid_v4()`: a random version 4 UUID, lowercase and hyphenated.

import { Value, allocBytes, bytesPtr, alloc } from '../value';
import { HEX_LOWER } from '../codec/hex';

// @ts-ignore: decorator
@external("svc_js", "random")
declare function jsRandom(ptr: usize, len: usize): void;

export function fn_uuid_v4(): Value {
  const random = alloc(16);
  jsRandom(random, 16);
  store<u8>(random + 6, (load<u8>(random + 6) & 0x0f) | 0x40); // version 4
  store<u8>(random + 8, (load<u8>(random + 8) & 0x3f) | 0x80); // RFC 4122 variant
  const uuid = allocBytes(36);
  let out = bytesPtr(uuid);
  for (let i: usize = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) store<u8>(out++, 0x2d);
    const byte = <usize>load<u8>(random + i);
    store<u8>(out++, load<u8>(HEX_LOWER + (byte >> 4)));
    store<u8>(out++, load<u8>(HEX_LOWER + (byte & 15)));
  }
  return uuid;
}
