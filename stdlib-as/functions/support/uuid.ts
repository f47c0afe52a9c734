// UUIDs as text: lower-case hex, hyphenated 8-4-4-4-12.

import { Value, allocBytes, bytesPtr } from '../../value';
import { HEX_DIGITS } from '../../text';

/** The 16 bytes at `bytes` as a UUID string. */
export function uuidText(bytes: usize): Value {
  const uuid = allocBytes(36);
  let out = bytesPtr(uuid);
  for (let i: usize = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) store<u8>(out++, 0x2d);
    const byte = <usize>load<u8>(bytes + i);
    store<u8>(out++, load<u8>(HEX_DIGITS + (byte >> 4)));
    store<u8>(out++, load<u8>(HEX_DIGITS + (byte & 15)));
  }
  return uuid;
}
