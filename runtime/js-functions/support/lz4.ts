// LZ4 decoding with every bound checked (lz4js's decoder trusts its input): raw blocks with lz4_flex's
// error texts, and frames (the LZ4 frame format, with header, block and content checksums verified).
// Output never grows past the caller's limit.

import { library } from './library.js';

const xxh32Library = library<{ hash(seed: number, bytes: Uint8Array, start: number, length: number): number }>(
  'lz4js/xxh32.js',
);

/** A decoding failure, its message as lz4_flex displays it. */
export class Lz4Error extends Error {}

/** Thrown when the output would pass the limit the caller gave. */
class Lz4TooLarge extends Error {}

const MIN_MATCH = 4;

/**
 * Decodes one block of `src[start, end)` into `out` from `at`, never past `limit` bytes; matches may reach
 * back into earlier output (linked frame blocks). Returns the new end of the output.
 */
function decodeBlock(
  src: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
  at: number,
  limit: number,
  tooSmall: () => Error,
): number {
  let i = start;
  const readLength = (length: number): number => {
    if (length !== 15) return length;
    for (;;) {
      if (i >= end) throw new Lz4Error('expected another byte, found none');
      const byte = src[i++]!;
      length += byte;
      if (byte !== 255) return length;
    }
  };
  while (i < end) {
    const token = src[i++]!;
    const literals = readLength(token >> 4);
    if (literals > end - i) throw new Lz4Error('literal is out of bounds of the input');
    if (at + literals > limit) throw tooSmall();
    out.set(src.subarray(i, i + literals), at);
    at += literals;
    i += literals;
    if (i >= end) break;
    if (i + 2 > end) throw new Lz4Error('expected another byte, found none');
    const offset = src[i]! | (src[i + 1]! << 8);
    i += 2;
    const length = readLength(token & 15) + MIN_MATCH;
    if (offset === 0 || offset > at)
      throw new Lz4Error('the offset to copy is not contained in the decompressed buffer');
    if (at + length > limit) throw tooSmall();
    // Byte by byte: a match may overlap the bytes it produces.
    for (let from = at - offset, n = 0; n < length; n++) out[at++] = out[from + n]!;
  }
  return at;
}

/** A raw block of at most `capacity` bytes (lz4_flex's `decompress` with that size). */
export function decodeLz4Block(src: Uint8Array, capacity: number): Uint8Array {
  const out = new Uint8Array(capacity);
  const length = decodeBlock(
    src,
    0,
    src.length,
    out,
    0,
    capacity,
    () =>
      new Lz4Error(
        `provided output is too small for the decompressed data, actual ${capacity}, expected ${capacity + 1}`,
      ),
  );
  return out.subarray(0, length);
}

/** A raw block whose exact size is the little-endian u32 before it (lz4_flex's `decompress_size_prepended`). */
export function decodeLz4SizePrepended(src: Uint8Array, cap: number): Uint8Array {
  if (src.length < 4) throw new Lz4Error('expected another byte, found none');
  const size = new DataView(src.buffer, src.byteOffset, 4).getUint32(0, true);
  if (size > cap) throw new Lz4TooLarge();
  const out = new Uint8Array(size);
  const length = decodeBlock(
    src,
    4,
    src.length,
    out,
    0,
    size,
    () => new Lz4Error(`provided output is too small for the decompressed data, actual ${size}, expected ${size + 1}`),
  );
  if (length !== size) throw new Lz4Error(`the expected decompressed size differs, actual ${length}, expected ${size}`);
  return out;
}

const FRAME_MAGIC = 0x184d2204;
const BLOCK_MAX_SIZES: Readonly<Record<number, number>> = { 4: 64 << 10, 5: 256 << 10, 6: 1 << 20, 7: 4 << 20 };

export function isLz4Frame(src: Uint8Array): boolean {
  return src.length >= 4 && new DataView(src.buffer, src.byteOffset, 4).getUint32(0, true) === FRAME_MAGIC;
}

/** Concatenated LZ4 frames, at most `cap` bytes of output; errors are lz4_flex's frame error names. */
export function decodeLz4Frames(src: Uint8Array, cap: number): Uint8Array {
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  let out = new Uint8Array(Math.min(cap, Math.max(64, src.length * 4)));
  let at = 0;
  let i = 0;
  const need = (n: number) => {
    if (i + n > src.length) throw new Lz4Error('failed to fill whole buffer');
  };
  /** Grows the output to hold `n` more bytes, within the cap. */
  const reserve = (n: number) => {
    if (at + n > cap) throw new Lz4TooLarge();
    if (at + n <= out.length) return;
    const grown = new Uint8Array(Math.min(cap, Math.max(at + n, out.length * 2)));
    grown.set(out.subarray(0, at));
    out = grown;
  };
  while (i < src.length) {
    need(7);
    if (view.getUint32(i, true) !== FRAME_MAGIC) throw new Lz4Error('WrongMagicNumber');
    const descriptorAt = i + 4;
    const flags = src[descriptorAt]!;
    if (flags >> 6 !== 1) throw new Lz4Error(`UnsupportedVersion(${flags >> 6})`);
    if (flags & 0b10) throw new Lz4Error('ReservedBitsSet');
    const blockMax = BLOCK_MAX_SIZES[(src[descriptorAt + 1]! >> 4) & 7];
    if (blockMax === undefined) throw new Lz4Error('UnsupportedBlocksize(' + ((src[descriptorAt + 1]! >> 4) & 7) + ')');
    const hasBlockChecksums = (flags & 0x10) !== 0;
    const hasContentSize = (flags & 0x08) !== 0;
    const hasContentChecksum = (flags & 0x04) !== 0;
    const hasDictionary = (flags & 0x01) !== 0;
    if (hasDictionary) throw new Lz4Error('DictionaryNotSupported');
    i = descriptorAt + 2;
    let contentSize: number | undefined;
    if (hasContentSize) {
      need(8);
      contentSize = Number(view.getBigUint64(i, true));
      if (at + contentSize > cap) throw new Lz4TooLarge();
      i += 8;
    }
    need(1);
    if (src[i] !== ((xxh32Library().hash(0, src, descriptorAt, i - descriptorAt) >>> 8) & 0xff))
      throw new Lz4Error('HeaderChecksumError');
    i += 1;
    const frameStart = at;
    for (;;) {
      need(4);
      const word = view.getUint32(i, true);
      i += 4;
      if (word === 0) break;
      const size = word & 0x7fffffff;
      if (size > blockMax) throw new Lz4Error('BlockTooBig');
      need(size + (hasBlockChecksums ? 4 : 0));
      if (hasBlockChecksums && view.getUint32(i + size, true) !== xxh32Library().hash(0, src, i, size) >>> 0)
        throw new Lz4Error('BlockChecksumError');
      if (word & 0x80000000) {
        reserve(size);
        out.set(src.subarray(i, i + size), at);
        at += size;
      } else {
        reserve(Math.min(blockMax, cap - at));
        at = decodeBlock(src, i, i + size, out, at, at + Math.min(blockMax, cap - at), () =>
          at + blockMax > cap ? new Lz4TooLarge() : new Lz4Error('BlockTooBig'),
        );
      }
      i += size + (hasBlockChecksums ? 4 : 0);
    }
    if (hasContentChecksum) {
      need(4);
      if (view.getUint32(i, true) !== xxh32Library().hash(0, out, frameStart, at - frameStart) >>> 0)
        throw new Lz4Error('ContentChecksumError');
      i += 4;
    }
    if (contentSize !== undefined && at - frameStart !== contentSize) {
      throw new Lz4Error(`ContentLengthError { expected: ${contentSize}, actual: ${at - frameStart} }`);
    }
  }
  return out.subarray(0, at);
}
