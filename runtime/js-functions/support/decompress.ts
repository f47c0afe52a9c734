// What the decompression functions share: the message when the output would pass the instance's cap
// (`--max-decompressed-size-bytes`), and node:zlib decoding bounded by it.

import { gunzipSync, inflateSync } from 'node:zlib';

/** Rust-side messages of flate2 for node:zlib's error codes (others keep Node's text). */
const ZLIB_MESSAGES: Readonly<Record<string, string>> = {
  Z_DATA_ERROR: 'corrupt deflate stream',
  Z_BUF_ERROR: 'unexpected end of file',
};

export function tooLarge(cap: number): string {
  return `decompressed size exceeds the limit of ${cap} bytes`;
}

/** `bytes` inflated (gzip or zlib framing) into at most `cap` bytes; throws with `label`'s prefix. */
export function inflateBounded(format: 'gzip' | 'zlib', bytes: Uint8Array, cap: number): Buffer {
  const label = `unable to decode value with ${format === 'gzip' ? 'Gzip' : 'Zlib'} decoder: `;
  try {
    return (format === 'gzip' ? gunzipSync : inflateSync)(bytes, { maxOutputLength: Math.max(cap, 1) });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new Error(label + tooLarge(cap));
    if (format === 'gzip' && message === 'incorrect header check') throw new Error(`${label}invalid gzip header`);
    throw new Error(label + (ZLIB_MESSAGES[code ?? ''] ?? message));
  }
}
