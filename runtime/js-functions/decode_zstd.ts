// decode_zstd(value): Zstandard frames decompressed, at most the instance's decompression cap.

import type { JsFunction } from '../imports.js';
import { zstdDecompress } from '../zstd.js';
import { bytesArg } from './support/args.js';
import { tooLarge } from './support/decompress.js';

const LABEL = 'unable to decode value with Zstd decoder: ';

export const decode_zstd: JsFunction = ([value], context) => {
  let out: Uint8Array | undefined;
  try {
    out = zstdDecompress(bytesArg(value!), context.maxDecompressedSize);
  } catch (error) {
    throw new Error(LABEL + (error as Error).message);
  }
  if (out === undefined) throw new Error(LABEL + tooLarge(context.maxDecompressedSize));
  return out;
};
