// Payload compression shared by sinks (`compression` option): gzip and zlib by node:zlib, zstd by the zstd
// wasm build (loaded once, on first use). Levels are Vector's defaults (gzip/zlib 6, zstd 3).

import { promisify } from 'node:util';
import { deflate, gzip } from 'node:zlib';

export type Compression = 'none' | 'gzip' | 'zlib' | 'zstd';

/** The `Content-Encoding` of a compressed HTTP body. */
export const CONTENT_ENCODING: Record<Exclude<Compression, 'none'>, string> = { gzip: 'gzip', zlib: 'deflate', zstd: 'zstd' };

const gzipAsync = promisify(gzip);
const deflateAsync = promisify(deflate);

let zstd: Promise<(bytes: Uint8Array, level: number) => Uint8Array> | undefined;

function zstdCompress(): Promise<(bytes: Uint8Array, level: number) => Uint8Array> {
  zstd ??= import('@bokuweb/zstd-wasm').then(async (module) => {
    await module.init();
    return module.compress;
  });
  return zstd;
}

/** `bytes` compressed as one gzip member, zlib stream or zstd frame (each decodes on its own, and
 * concatenated members/frames decode as their concatenation). */
export async function compress(algorithm: Compression, bytes: Uint8Array): Promise<Uint8Array> {
  switch (algorithm) {
    case 'none':
      return bytes;
    case 'gzip':
      return gzipAsync(bytes, { level: 6 });
    case 'zlib':
      return deflateAsync(bytes, { level: 6 });
    case 'zstd':
      return (await zstdCompress())(bytes, 3);
  }
}
