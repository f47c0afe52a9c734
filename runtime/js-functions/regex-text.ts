// Regex matching for JS functions on UTF-8 byte positions: VRL reports and takes byte offsets, the regex
// engine works on UTF-16 indexes.

/** The UTF-16 index of UTF-8 byte `offset` of `text`, moved forward to a character boundary; -1 past the end. */
export function indexOfByte(text: string, offset: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    if (bytes >= offset) return i;
    const c = text.codePointAt(i)!;
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (c >= 0x10000) i++;
  }
  return bytes >= offset ? text.length : -1;
}
