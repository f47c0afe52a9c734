// Base64 (RFC 4648) with the standard or the URL-safe alphabet, as the `base64` crate's general-purpose
// engine does it for VRL: padding written on request, and on decoding optional but never more than canonical;
// the bits after the last symbol must be zero.

import { Buffer, bufferReserve } from '../buffer';

const STANDARD = memory.data<u8>([
  65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 97, 98, 99,
  100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 48,
  49, 50, 51, 52, 53, 54, 55, 56, 57, 43, 47,
]);
const URL_SAFE = memory.data<u8>([
  65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 97, 98, 99,
  100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 48,
  49, 50, 51, 52, 53, 54, 55, 56, 57, 45, 95,
]);

/** Symbol values by byte, 255 for bytes outside the alphabet. */
const STANDARD_VALUES = memory.data<u8>([
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 62, 255, 255, 255,
  63, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 255, 255, 255, 255, 255, 255, 255, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
  12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 255, 255, 255, 255, 255, 255, 26, 27, 28, 29, 30, 31, 32, 33,
  34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255,
]);
const URL_SAFE_VALUES = memory.data<u8>([
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 62, 255,
  255, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 255, 255, 255, 255, 255, 255, 255, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
  12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 255, 255, 255, 255, 63, 255, 26, 27, 28, 29, 30, 31, 32, 33,
  34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255,
]);

const PAD: u8 = 0x3d;

/** Appends the encoding of `len` bytes at `ptr`. */
export function writeBase64(b: Buffer, ptr: usize, len: usize, urlSafe: bool, padding: bool): void {
  const alphabet = urlSafe ? URL_SAFE : STANDARD;
  const whole = (len / 3) * 3;
  const rest = len - whole;
  const out = bufferReserve(b, (whole / 3) * 4 + (rest == 0 ? 0 : padding ? 4 : rest + 1));
  let o = out;
  for (let i: usize = 0; i < whole; i += 3) {
    const n = ((<u32>load<u8>(ptr + i)) << 16) | ((<u32>load<u8>(ptr + i + 1)) << 8) | <u32>load<u8>(ptr + i + 2);
    store<u8>(o, load<u8>(alphabet + (n >> 18)));
    store<u8>(o + 1, load<u8>(alphabet + ((n >> 12) & 63)));
    store<u8>(o + 2, load<u8>(alphabet + ((n >> 6) & 63)));
    store<u8>(o + 3, load<u8>(alphabet + (n & 63)));
    o += 4;
  }
  if (rest == 0) return;
  const n = ((<u32>load<u8>(ptr + whole)) << 16) | (rest == 2 ? (<u32>load<u8>(ptr + whole + 1)) << 8 : 0);
  store<u8>(o++, load<u8>(alphabet + (n >> 18)));
  store<u8>(o++, load<u8>(alphabet + ((n >> 12) & 63)));
  if (rest == 2) store<u8>(o++, load<u8>(alphabet + ((n >> 6) & 63)));
  if (padding) {
    store<u8>(o++, PAD);
    if (rest == 1) store<u8>(o++, PAD);
  }
}

/** Decodes `len` symbols at `ptr` into `out` (room for len / 4 * 3 + 2 bytes); the byte count, or -1 when invalid. */
export function decodeBase64(ptr: usize, len: usize, urlSafe: bool, out: usize): isize {
  const values = urlSafe ? URL_SAFE_VALUES : STANDARD_VALUES;
  let end = len;
  while (end > 0 && load<u8>(ptr + end - 1) == PAD) end--;
  const symbols = end;
  const rest = symbols & 3;
  // A lone trailing symbol holds no whole byte; padding, when present, must be exactly what completes the last quad.
  if (rest == 1) return -1;
  if (len != symbols && (rest == 0 || len - symbols != 4 - rest)) return -1;
  let o = out;
  const whole = symbols - rest;
  for (let i: usize = 0; i < whole; i += 4) {
    const a = <u32>load<u8>(values + load<u8>(ptr + i));
    const b = <u32>load<u8>(values + load<u8>(ptr + i + 1));
    const c = <u32>load<u8>(values + load<u8>(ptr + i + 2));
    const d = <u32>load<u8>(values + load<u8>(ptr + i + 3));
    if ((a | b | c | d) > 63) return -1;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    store<u8>(o, <u8>(n >> 16));
    store<u8>(o + 1, <u8>(n >> 8));
    store<u8>(o + 2, <u8>n);
    o += 3;
  }
  if (rest == 0) return <isize>(o - out);
  const a = <u32>load<u8>(values + load<u8>(ptr + whole));
  const b = <u32>load<u8>(values + load<u8>(ptr + whole + 1));
  const c = rest == 3 ? <u32>load<u8>(values + load<u8>(ptr + whole + 2)) : 0;
  if ((a | b | c) > 63) return -1;
  const n = (a << 18) | (b << 12) | (c << 6);
  // The bits past the last whole byte must be zero (the crate's "invalid last symbol").
  if ((rest == 2 ? n & 0xffff : n & 0xff) != 0) return -1;
  store<u8>(o++, <u8>(n >> 16));
  if (rest == 3) store<u8>(o++, <u8>(n >> 8));
  return <isize>(o - out);
}
