// Ohm reports UTF-16 indices; the AST and diagnostics use UTF-8 byte offsets, as VRL does.

/** Maps UTF-16 indices of `source` to UTF-8 byte offsets. Identity for ASCII sources. */
export function byteOffsets(source: string): (index: number) => number {
  // Most programs are ASCII, where both units coincide.
  if (!/[^\x00-\x7f]/.test(source)) return (index) => index;
  const table = new Uint32Array(source.length + 1);
  let bytes = 0;
  for (let i = 0; i < source.length; i++) {
    table[i] = bytes;
    const unit = source.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    // A surrogate pair is one 4-byte code point: 2 bytes for each half.
    else if (unit >= 0xd800 && unit <= 0xdfff) bytes += 2;
    else bytes += 3;
  }
  table[source.length] = bytes;
  return (index) => table[index];
}
