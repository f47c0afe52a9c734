// Payload compression shared by sinks (`compression` option): gzip and zlib by node:zlib, snappy (raw, unframed,
// as Vector's) by snappyjs, zstd by the
// runtime's zstd (runtime/zstd.ts: the process's one instance of the wasm build, whose second `init()` would
// break it). Levels are Vector's defaults (gzip/zlib 6, zstd 3).

import { promisify } from 'node:util';
import { deflate, gzip } from 'node:zlib';
import { loadZstd } from '../../../runtime/engine.js';

export type Compression = 'none' | 'gzip' | 'zlib' | 'zstd' | 'snappy';

/** The `Content-Encoding` of a compressed HTTP body. */
export const CONTENT_ENCODING: Record<Exclude<Compression, 'none'>, string> = {
  gzip: 'gzip',
  zlib: 'deflate',
  zstd: 'zstd',
  snappy: 'snappy',
};

const gzipAsync = promisify(gzip);
const deflateAsync = promisify(deflate);

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
      return (await loadZstd()).zstdCompress(bytes, 3);
    case 'snappy':
      return (await import('snappyjs')).compress(bytes);
  }
}
