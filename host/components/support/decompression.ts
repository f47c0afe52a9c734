// Request bodies by `Content-Encoding` (gzip, deflate, zstd; a list is undone last first), never growing
// past a cap (`--max-decompressed-size-bytes`): gzip and deflate by node:zlib with `maxOutputLength`, zstd
// by the zstd wasm build after reading the frame's declared size.

import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';

/** Why a body could not be decompressed; `status` is the HTTP answer. */
export class DecompressionError extends Error {
  constructor(
    readonly status: 413 | 415 | 400,
    message: string,
  ) {
    super(message);
  }
}

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

type Decompress = (bytes: Uint8Array, cap: number) => Promise<Uint8Array>;

const zlibDecompress =
  (run: typeof gunzipAsync): Decompress =>
  async (bytes, cap) => {
    try {
      return await run(bytes, { maxOutputLength: cap });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(cap);
      throw error;
    }
  };

const DECODERS: Record<string, Decompress> = {
  gzip: zlibDecompress(gunzipAsync),
  'x-gzip': zlibDecompress(gunzipAsync),
  deflate: zlibDecompress(inflateAsync),
  zstd: zstdDecompress,
};

function tooLarge(cap: number): DecompressionError {
  return new DecompressionError(413, `Decompressed body exceeds the limit of ${cap} bytes`);
}

/** `body` with every encoding of `contentEncoding` undone; errors are `DecompressionError`s. */
export async function decompressBody(body: Uint8Array, contentEncoding: string | undefined, cap: number): Promise<Uint8Array> {
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((encoding) => encoding.trim().toLowerCase())
    .filter((encoding) => encoding !== '' && encoding !== 'identity');
  let bytes = body;
  for (const encoding of encodings.reverse()) {
    const decompress = DECODERS[encoding];
    if (decompress === undefined) throw new DecompressionError(415, `Unsupported encoding ${encoding}`);
    try {
      bytes = await decompress(bytes, cap);
    } catch (error) {
      if (error instanceof DecompressionError) throw error;
      throw new DecompressionError(400, `Failed decompressing payload with ${encoding} decoder: ${(error as Error).message}`);
    }
  }
  return bytes;
}

// ---- zstd ---------------------------------------------------------------------------------------------

let zstd: Promise<typeof import('@bokuweb/zstd-wasm')> | undefined;

/** The content size a zstd frame header declares, or undefined when it does not say (RFC 8878 §3.1.1.1). */
function zstdContentSize(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 6 || view.getUint32(0, true) !== 0xfd2fb528) throw new Error('not a zstd frame');
  const descriptor = bytes[4]!;
  const sizeFlag = descriptor >> 6;
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!;
  const at = 5 + (singleSegment ? 0 : 1) + dictionaryBytes;
  const sizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][sizeFlag]!;
  if (sizeBytes === 0) return undefined;
  if (bytes.length < at + sizeBytes) throw new Error('truncated zstd frame header');
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

async function zstdDecompress(bytes: Uint8Array, cap: number): Promise<Uint8Array> {
  const declared = zstdContentSize(bytes);
  if (declared !== undefined && declared > cap) throw tooLarge(cap);
  zstd ??= import('@bokuweb/zstd-wasm').then(async (module) => {
    await module.init();
    return module;
  });
  const { decompress } = await zstd;
  // Without a declared size the output buffer is the cap plus one byte: filling it means too large.
  const out = decompress(bytes, { defaultHeapSize: cap + 1 });
  if (out.length > cap) throw tooLarge(cap);
  return out;
}
