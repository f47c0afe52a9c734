import { Value, bytesPtr, bytesLen, alloc } from '../value';
import { fail, failWith } from '../error';
import { bufferNew, bufferAscii, bufferByte, bufferData, bufferLength } from '../buffer';
import { writeInt } from '../codec/number';
import { expectKinds } from './support/args';
import { uuidText } from './support/uuid';
import { HEX_DIGITS } from '../text';
import { KindBit } from '../../abi/wire/kinds';

/** Value of a base62 digit (`0-9A-Za-z`), or -1. */
function digitOf(c: u32): i32 {
  if (c - 0x30 < 10) return <i32>(c - 0x30);
  if (c - 0x41 < 26) return <i32>(c - 0x41 + 10);
  if (c - 0x61 < 26) return <i32>(c - 0x61 + 36);
  return -1;
}

const OVERFLOW = 'failed to decode friendly id: Decoded number cannot fit into a `u128`';

/**
 * `uuid_from_friendly_id(value)`: the base62 text decoded into a 128-bit number (the `base62` crate),
 * written as the UUID with those bits; the errors are the crate's.
 */
export function fn_uuid_from_friendly_id(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const ptr = bytesPtr(value);
  const len = bytesLen(value);
  if (len == 0) return failWith('failed to decode friendly id: Encoded input is an empty string');
  // The crate rejects more than 22 digits after leading zeros as an overflow before it looks at any byte.
  let zeros: usize = 0;
  while (zeros < len && load<u8>(ptr + zeros) == 0x30) zeros++;
  if (len - zeros > 22) return failWith(OVERFLOW);
  let high: u64 = 0;
  let low: u64 = 0;
  for (let i: usize = 0; i < len; i++) {
    const byte = <u32>load<u8>(ptr + i);
    const digit = digitOf(byte);
    if (digit < 0) return failInvalidByte(byte, i);
    // (high, low) × 62 + digit, in 32-bit limbs so every carry fits in a u64.
    let carry: u64 = <u64>digit;
    const l0 = (low & 0xffffffff) * 62 + carry;
    carry = l0 >> 32;
    const l1 = (low >> 32) * 62 + carry;
    carry = l1 >> 32;
    const h0 = (high & 0xffffffff) * 62 + carry;
    carry = h0 >> 32;
    const h1 = (high >> 32) * 62 + carry;
    if (h1 >> 32 != 0) return failWith(OVERFLOW);
    low = (l1 << 32) | (l0 & 0xffffffff);
    high = (h1 << 32) | (h0 & 0xffffffff);
  }
  const bytes = alloc(16);
  for (let i: usize = 0; i < 8; i++) {
    store<u8>(bytes + i, <u8>(high >> (56 - 8 * i)));
    store<u8>(bytes + 8 + i, <u8>(low >> (56 - 8 * i)));
  }
  return uuidText(bytes);
}

/** The crate's text: the byte as Rust's `ascii::escape_default` writes it, and its index. */
function failInvalidByte(byte: u32, index: usize): Value {
  const b = bufferNew(96);
  bufferAscii(b, "failed to decode friendly id: Encoded input contains the invalid byte b'");
  if (byte == 0x09) bufferAscii(b, '\\t');
  else if (byte == 0x0a) bufferAscii(b, '\\n');
  else if (byte == 0x0d) bufferAscii(b, '\\r');
  else if (byte == 0x27 || byte == 0x22 || byte == 0x5c) {
    bufferByte(b, 0x5c);
    bufferByte(b, <u8>byte);
  } else if (byte >= 0x20 && byte < 0x7f) bufferByte(b, <u8>byte);
  else {
    bufferAscii(b, '\\x');
    bufferByte(b, load<u8>(HEX_DIGITS + (byte >> 4)));
    bufferByte(b, load<u8>(HEX_DIGITS + (byte & 15)));
  }
  bufferAscii(b, "' at index ");
  writeInt(b, <i64>index);
  return fail(bufferData(b), bufferLength(b));
}
