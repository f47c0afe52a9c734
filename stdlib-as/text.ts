// Character classes of UTF-8 text, and strings quoted the way Rust's Debug formatting quotes them.


/**
 * Byte length of the character at `at` (before `end`) when it is Unicode White_Space (Rust's
 * `char::is_whitespace`), else 0.
 */
export function whitespaceLength(at: usize, end: usize): usize {
  const lead = <u32>load<u8>(at);
  if (lead == 0x20 || (lead >= 0x09 && lead <= 0x0d)) return 1;
  if (lead < 0xc2 || lead > 0xe3 || at + 1 >= end) return 0;
  const second = <u32>load<u8>(at + 1);
  if (lead == 0xc2) return second == 0x85 || second == 0xa0 ? 2 : 0; // U+0085, U+00A0
  if (at + 2 >= end) return 0;
  const third = <u32>load<u8>(at + 2);
  switch ((lead << 8) | second) {
    case 0xe19a: return third == 0x80 ? 3 : 0; // U+1680
    case 0xe280: // U+2000–U+200A, U+2028, U+2029, U+202F
      return (third >= 0x80 && third <= 0x8a) || third == 0xa8 || third == 0xa9 || third == 0xaf ? 3 : 0;
    case 0xe281: return third == 0x9f ? 3 : 0; // U+205F
    case 0xe380: return third == 0x80 ? 3 : 0; // U+3000
  }
  return 0;
}


/** Whether the bytes are exactly the ASCII string literal. */
export function equalsAscii(ptr: usize, len: usize, text: string): bool {
  if (len != <usize>text.length) return false;
  for (let i: usize = 0; i < len; i++) if (load<u8>(ptr + i) != <u8>text.charCodeAt(<i32>i)) return false;
  return true;
}

/** Whether the bytes are the lower-case ASCII letters of `word`, in any case. */
export function equalsWordIgnoreCase(ptr: usize, len: usize, word: string): bool {
  if (len != <usize>word.length) return false;
  for (let i: usize = 0; i < len; i++) if ((load<u8>(ptr + i) | 0x20) != <u8>word.charCodeAt(<i32>i)) return false;
  return true;
}
