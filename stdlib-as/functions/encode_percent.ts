// encode_percent(value, ascii_set = "NON_ALPHANUMERIC"): the text percent-encoded (`%XX`, uppercase) for URLs.
// Bytes outside ASCII are always encoded; ASCII bytes when the set holds them. The sets are the
// percent-encoding crate's and the WHATWG URL standard's, as VRL defines them.

import { Value, bytesPtr, bytesLen } from '../value';
import { failWith } from '../error';
import { bufferNew, bufferByte, bufferToBytes } from '../buffer';
import { equalsAscii } from '../text';
import { HEX_UPPER } from '../codec/hex';
import { expectKinds } from './support/args';
import { lossy } from './support/text';
import { KindBit } from '../../abi/wire/kinds';

/** The ASCII sets as 128-bit maps (4 u32 words, bit c of the map: ASCII byte c is encoded), in SET_NAMES order. */
const SETS = memory.data<u32>([
  0xffffffff,
  0xfc00ffff,
  0xf8000001,
  0xf8000001, // NON_ALPHANUMERIC
  0xffffffff,
  0x00000000,
  0x00000000,
  0x80000000, // CONTROLS
  0xffffffff,
  0x50000005,
  0x00000000,
  0x80000001, // FRAGMENT
  0xffffffff,
  0x5000000d,
  0x00000000,
  0x80000000, // QUERY
  0xffffffff,
  0x5000008d,
  0x00000000,
  0x80000000, // SPECIAL
  0xffffffff,
  0xd000000d,
  0x00000000,
  0xa8000001, // PATH
  0xffffffff,
  0xfc00800d,
  0x78000001,
  0xb8000001, // USERINFO
  0xffffffff,
  0xfc00987d,
  0x78000001,
  0xb8000001, // COMPONENT
  0xffffffff,
  0xfc009bff,
  0x78000001,
  0xf8000001, // WWW_FORM_URLENCODED
]);
const SET_NAMES: StaticArray<string> = [
  'NON_ALPHANUMERIC',
  'CONTROLS',
  'FRAGMENT',
  'QUERY',
  'SPECIAL',
  'PATH',
  'USERINFO',
  'COMPONENT',
  'WWW_FORM_URLENCODED',
];

/** The address of the named set's map, or 0. */
function setNamed(name: Value): usize {
  for (let i = 0; i < SET_NAMES.length; i++) {
    if (equalsAscii(bytesPtr(name), bytesLen(name), unchecked(SET_NAMES[i]))) return SETS + ((<usize>i) << 4);
  }
  return 0;
}

export function fn_encode_percent(value: Value, asciiSet: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  if (asciiSet != 0 && !expectKinds(asciiSet, KindBit.Bytes)) return 0;
  const set = asciiSet == 0 ? SETS : setNamed(asciiSet);
  if (set == 0) return failWith('unknown ascii_set');
  const text = lossy(value);
  const ptr = bytesPtr(text);
  const len = bytesLen(text);
  const b = bufferNew(len + (len >> 1));
  for (let i: usize = 0; i < len; i++) {
    const c = load<u8>(ptr + i);
    if (c >= 0x80 || (load<u32>(set + ((<usize>c >> 5) << 2)) >> (c & 31)) & 1) {
      bufferByte(b, 0x25);
      bufferByte(b, load<u8>(HEX_UPPER + (c >> 4)));
      bufferByte(b, load<u8>(HEX_UPPER + (c & 15)));
    } else {
      bufferByte(b, c);
    }
  }
  return bufferToBytes(b);
}
