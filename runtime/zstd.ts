// Zstandard through @bokuweb/zstd-wasm (Node 20's zlib has no zstd), for remap's encode_zstd/decode_zstd and
// the host's request bodies. The wasm module is loaded once at import: its initialization is asynchronous,
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

/** The content size a zstd frame header declares, or undefined when it does not say (RFC 8878 §3.1.1.1). */
export function zstdContentSize(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 5 || view.getUint32(0, true) !== MAGIC) throw zstdError(10);
  const descriptor = bytes[4]!;
  const sizeFlag = descriptor >> 6;
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!;
  const at = 5 + (singleSegment ? 0 : 1) + dictionaryBytes;
  const sizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][sizeFlag]!;
  if (sizeBytes === 0) return undefined;
  if (bytes.length < at + sizeBytes) throw zstdError(72);
  switch (sizeBytes) {
    case 1:
      return bytes[at]!;
    case 2:
      return view.getUint16(at, true) + 256;
    case 4:
      return view.getUint32(at, true);
    default:
      return Number(view.getBigUint64(at, true));
  }
}

/** The decompressed frames, or undefined when they hold more than `cap` bytes; throws zstd's error text. */
export function zstdDecompress(bytes: Uint8Array, cap: number): Uint8Array | undefined {
  const declared = zstdContentSize(bytes);
  if (declared !== undefined && declared > cap) return undefined;
  // Undeclared sizes: start from a guess and double; a buffer of cap + 1 bytes that fills up means too large.
  let capacity = declared ?? Math.min(cap + 1, Math.max(1 << 16, bytes.length * 8));
  for (;;) {
    try {
      const out = decompress(bytes, { defaultHeapSize: capacity });
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
  const descriptor = frame[4]!;
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!;
  const sizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][descriptor >> 6]!;
  const headerEnd = 5 + (singleSegment ? 0 : 1) + dictionaryBytes + sizeBytes;
  const windowLog = level < 0 ? NEGATIVE_LEVEL_WINDOW_LOG : WINDOW_LOG[Math.min(level, WINDOW_LOG.length - 1)]!;
  const dictionaryAt = 5 + (singleSegment ? 0 : 1);
  const header = [...frame.subarray(0, 4), descriptor & 0x07, (windowLog - 10) << 3, ...frame.subarray(dictionaryAt, dictionaryAt + dictionaryBytes)];
  const out = new Uint8Array(header.length + frame.length - headerEnd);
  out.set(header);
  out.set(frame.subarray(headerEnd), header.length);
  return out;
}
