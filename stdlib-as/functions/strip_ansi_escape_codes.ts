// `strip_ansi_escape_codes(value)`: the text without its terminal escape sequences, as the strip-ansi-escapes
// crate (a VT parser) leaves it: printable text, newlines and tabs; CSI (`ESC [` … final byte), OSC
// (`ESC ]` … BEL or `ESC \`), DCS/SOS/PM/APC strings (… `ESC \`), other `ESC` sequences and the other C0
// controls are dropped.

import { Value, allocBytes, bytesPtr, bytesLen, newBytes } from '../value';
import { expectKinds } from './support/args';
import { KindBit } from '../../abi/wire/kinds';

const ESC: u8 = 0x1b;

export function fn_strip_ansi_escape_codes(value: Value): Value {
  if (!expectKinds(value, KindBit.Bytes)) return 0;
  const src = bytesPtr(value);
  const len = bytesLen(value);
  const result = allocBytes(len);
  const out = bytesPtr(result);
  let n: usize = 0;
  let i: usize = 0;
  while (i < len) {
    const c = load<u8>(src + i);
    if (c == ESC) {
      i = skipEscape(src, len, i + 1);
      continue;
    }
    if (c >= 0x20 || c == 0x0a || c == 0x09) {
      if (c != 0x7f) store<u8>(out + n++, c);
    }
    i++;
  }
  return newBytes(out, n);
}

/** The index after the escape sequence whose introducer (`ESC`) ends before `i`. */
function skipEscape(src: usize, len: usize, i: usize): usize {
  if (i >= len) return i;
  const kind = load<u8>(src + i);
  if (kind == 0x5b) {
    // CSI: parameter and intermediate bytes, then one final byte.
    for (i++; i < len; i++) {
      const c = load<u8>(src + i);
      if (c >= 0x40 && c <= 0x7e) return i + 1;
      if (c < 0x20 || c > 0x3f) return i;
    }
    return i;
  }
  if (kind == 0x5d || kind == 0x50 || kind == 0x58 || kind == 0x5e || kind == 0x5f) {
    // OSC (also ended by BEL), DCS, SOS, PM, APC: a string up to the string terminator `ESC \`.
    for (i++; i < len; i++) {
      const c = load<u8>(src + i);
      if (c == 0x07 && kind == 0x5d) return i + 1;
      if (c == ESC) return i + 1 < len && load<u8>(src + i + 1) == 0x5c ? i + 2 : i + 1;
    }
    return i;
  }
  // Other escape sequences: intermediate bytes, then one final byte.
  while (i < len && load<u8>(src + i) >= 0x20 && load<u8>(src + i) <= 0x2f) i++;
  return i < len && load<u8>(src + i) >= 0x30 && load<u8>(src + i) <= 0x7e ? i + 1 : i;
}
