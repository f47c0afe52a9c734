// Request bodies: read up to a cap (`--max-decompressed-size-bytes`), then decoded by `Content-Encoding`
// (gzip, deflate, zstd; a list is undone last first) without growing past it: gzip and deflate by node:zlib
// with `maxOutputLength`, zstd by the runtime's zstd wasm build (runtime/zstd.ts).

import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import { loadZstd } from '../../../runtime/engine.js';

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
  zstd: zstdDecompressBounded,
};

function tooLarge(cap: number): DecompressionError {
  return new DecompressionError(413, `Decompressed body exceeds the limit of ${cap} bytes`);
}

/** `body` with every encoding of `contentEncoding` undone; errors are `DecompressionError`s. */
export async function decompressBody(
  body: Uint8Array,
  contentEncoding: string | undefined,
  cap: number,
): Promise<Uint8Array> {
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
      throw new DecompressionError(
        400,
        `Failed decompressing payload with ${encoding} decoder: ${(error as Error).message}`,
      );
    }
  }
  return bytes;
}

/** zstd by the runtime's build (runtime/zstd.ts), which checks a declared size before decoding. */
async function zstdDecompressBounded(bytes: Uint8Array, cap: number): Promise<Uint8Array> {
  const out = (await loadZstd()).zstdDecompress(bytes, cap);
  if (out === undefined) throw tooLarge(cap);
  return out;
}

/** Snappy's raw block format (Prometheus remote write bodies), whose declared length snappyjs checks first;
 * not among the `Content-Encoding`s above, as the http_server source does not take it. */
export async function decompressSnappy(bytes: Uint8Array, cap: number): Promise<Uint8Array> {
  const { uncompress } = await import('snappyjs');
  try {
    return uncompress(bytes, cap);
  } catch (error) {
    if ((error as Error).message.includes('too big')) throw tooLarge(cap);
    throw new DecompressionError(400, `Failed decompressing payload with snappy decoder: ${(error as Error).message}`);
  }
}

/** Reads a request body (the chunks of Node's `IncomingMessage`: a fetch `Request` of it costs more than
 * the events of a small request), failing with 413 past `cap` bytes. */
export async function readBody(body: AsyncIterable<Uint8Array>, cap: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > cap) throw new DecompressionError(413, `Request body exceeds the limit of ${cap} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
