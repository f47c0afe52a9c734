// encode_zstd(value, compression_level = 3): one Zstandard frame.

import type { JsFunction } from '../imports.js';
import { zstdCompress } from '../zstd.js';
import { bytesArg, integerArg } from './support/args.js';

/** zstd's level range (ZSTD_minCLevel() is -(1 << 17)); levels outside it are clamped, as zstd does. */
const MIN_LEVEL = -(1 << 17);
const MAX_LEVEL = 22;

export const encode_zstd: JsFunction = ([value, level]) => {
  const requested = Number(integerArg(level!, 3n));
  return zstdCompress(bytesArg(value!), Math.max(MIN_LEVEL, Math.min(MAX_LEVEL, requested)));
};
