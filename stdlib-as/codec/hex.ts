// Hexadecimal digits, for the functions that write or read them (base16, percent encoding).

export const HEX_LOWER = memory.data<u8>([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102]);
export const HEX_UPPER = memory.data<u8>([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 65, 66, 67, 68, 69, 70]);

/** The value of a hex digit of either case, or -1. */
export function hexValue(c: u8): i32 {
  if (c >= 0x30 && c <= 0x39) return <i32>c - 0x30;
  const lower = <i32>(c | 0x20);
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
