// Zstandard through @bokuweb/zstd-wasm (Node 20's zlib has no zstd), for remap's encode_zstd/decode_zstd and
// the pipeline's request bodies. The wasm module is loaded once at import: its initialization is asynchronous,
// calls after it are not. Decompression never produces more than a cap: a frame's declared size is checked
// before any buffer is made for it, and frames without one are decoded into buffers growing up to the cap.

import { compress, decompress, init } from '@bokuweb/zstd-wasm';

await init();

/** ZSTD_getErrorName's texts by error code (zstd_errors.h), for the library's `... with code -N` errors. */
const ERROR_NAMES: Readonly<Record<number, string>> = {
  1: 'Error (generic)',
  10: 'Unknown frame descriptor',
  12: 'Version not supported',
  14: 'Unsupported frame parameter',
  16: 'Frame requires too much memory for decoding',
  20: 'Data corruption detected',
  22: "Restored data doesn't match checksum",
  64: 'Allocation error : not enough memory',
  70: 'Destination buffer is too small',
  72: 'Src size is incorrect',
};
const DST_SIZE_TOO_SMALL = 70;
const MAGIC = 0xfd2fb528;

/** The zstd error code of a zstd-wasm failure (0 when it is not one). */
function errorCode(error: unknown): number {
  const match = /with code (-?\d+)$/.exec((error as Error).message);
  return match ? Math.abs(Number(match[1])) : 0;
}

function zstdError(code: number): Error {
  return new Error(ERROR_NAMES[code] ?? `zstd error ${code}`);
}

interface FrameHeader {
  descriptor: number;
  /** Bytes from the magic number to the first block. */
  length: number;
  /** The content size the header declares, or undefined when it does not say. */
  contentSize: number | undefined;
}

/** The header of the zstd frame at `at` (RFC 8878 §3.1.1.1). */
function frameHeader(bytes: Uint8Array, at: number): FrameHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < at + 5 || view.getUint32(at, true) !== MAGIC) throw zstdError(10);
  const descriptor = bytes[at + 4]!;
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!;
  const sizeAt = at + 5 + (singleSegment ? 0 : 1) + dictionaryBytes;
  const sizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][descriptor >> 6]!;
  const length = sizeAt + sizeBytes - at;
  if (sizeBytes === 0) return { descriptor, length, contentSize: undefined };
  if (bytes.length < sizeAt + sizeBytes) throw zstdError(72);
  const contentSize =
    sizeBytes === 1
      ? bytes[sizeAt]!
      : sizeBytes === 2
        ? view.getUint16(sizeAt, true) + 256
        : sizeBytes === 4
          ? view.getUint32(sizeAt, true)
          : Number(view.getBigUint64(sizeAt, true));
  return { descriptor, length, contentSize };
}

/** Skippable frames carry no content (RFC 8878 §3.1.2): magic numbers 0x184D2A50 to 0x184D2A5F. */
const SKIPPABLE_MAGIC = 0x184d2a50;

/**
 * The zstd frames that make up `bytes` (zstd decodes concatenated frames as one stream), skippable ones
 * left out. A frame that runs past the end, or bytes that are no frame, come last, for zstd to reject.
 */
function frames(bytes: Uint8Array): Uint8Array[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: Uint8Array[] = [];
  let at = 0;
  do {
    const magic = bytes.length >= at + 8 ? view.getUint32(at, true) : 0;
    const skippableEnd = (magic & 0xfffffff0) === SKIPPABLE_MAGIC ? at + 8 + view.getUint32(at + 4, true) : 0;
    if (skippableEnd > 0 && skippableEnd <= bytes.length) {
      at = skippableEnd;
      continue;
    }
    const end = magic === MAGIC ? frameEnd(bytes, at) : bytes.length;
    found.push(bytes.subarray(at, end));
    at = end;
  } while (at < bytes.length);
  return found;
}

/** Where the frame at `at` ends: after its last block and checksum (RFC 8878 §3.1.1.2), or at the end. */
function frameEnd(bytes: Uint8Array, at: number): number {
  const { descriptor, length } = frameHeader(bytes, at);
  let block = at + length;
  for (;;) {
    if (block + 3 > bytes.length) return bytes.length;
    const header = bytes[block]! | (bytes[block + 1]! << 8) | (bytes[block + 2]! << 16);
    const rle = ((header >> 1) & 3) === 1;
    block += 3 + (rle ? 1 : header >>> 3);
    if (header & 1) break;
  }
  const checksum = descriptor & 4 ? 4 : 0;
  return Math.min(block + checksum, bytes.length);
}

/** The decompressed frames, or undefined when they hold more than `cap` bytes; throws zstd's error text. */
export function zstdDecompress(bytes: Uint8Array, cap: number): Uint8Array | undefined {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (const frame of frames(bytes)) {
    const part = decompressFrame(frame, cap - total);
    if (part === undefined) return undefined;
    parts.push(part);
    total += part.length;
  }
  return parts.length === 1 ? parts[0] : Buffer.concat(parts, total);
}

/** One frame decompressed, or undefined when it holds more than `cap` bytes. */
function decompressFrame(frame: Uint8Array, cap: number): Uint8Array | undefined {
  const declared = frameHeader(frame, 0).contentSize;
  if (declared !== undefined && declared > cap) return undefined;
  // Undeclared sizes: start from a guess and double; a buffer of cap + 1 bytes that fills up means too large.
  let capacity = declared ?? Math.min(cap + 1, Math.max(1 << 16, frame.length * 8));
  for (;;) {
    try {
      const out = decompress(frame, { defaultHeapSize: capacity });
      return out.length > cap ? undefined : out;
    } catch (error) {
      const code = errorCode(error);
      if (code !== DST_SIZE_TOO_SMALL || declared !== undefined) throw zstdError(code);
      if (capacity > cap) return undefined;
      capacity = Math.min(capacity * 2, cap + 1);
    }
  }
}

/** zstd's window log by level (0: the default, 3) for inputs of unknown size (ZSTD_defaultCParameters[0]). */
const WINDOW_LOG = [21, 19, 20, 21, 21, 21, 21, 21, 22, 22, 22, 22, 22, 22, 22, 22, 22, 23, 23, 23, 25, 26, 27];
const NEGATIVE_LEVEL_WINDOW_LOG = 19;

/**
 * One frame at `level`, written as a streaming encoder writes it (Rust's `zstd::encode_all`, so upstream's
 * bytes): zstd-wasm's one-shot ZSTD_compress declares the content size in a single-segment header, which is
 * rewritten to a window descriptor for the level's window and no size. The blocks are unchanged: their
 * window, fitted to the known size, is never larger than the level's.
 */
export function zstdCompress(bytes: Uint8Array, level: number): Uint8Array {
  const frame = compress(bytes, level);
  const { descriptor, length: headerEnd } = frameHeader(frame, 0);
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!;
  const windowLog = level < 0 ? NEGATIVE_LEVEL_WINDOW_LOG : WINDOW_LOG[Math.min(level, WINDOW_LOG.length - 1)]!;
  const dictionaryAt = 5 + (singleSegment ? 0 : 1);
  const header = [
    ...frame.subarray(0, 4),
    descriptor & 0x07,
    (windowLog - 10) << 3,
    ...frame.subarray(dictionaryAt, dictionaryAt + dictionaryBytes),
  ];
  const out = new Uint8Array(header.length + frame.length - headerEnd);
  out.set(header);
  out.set(frame.subarray(headerEnd), header.length);
  return out;
}
