// The `compression_level` argument of encode_gzip and encode_zlib: flate2 takes 0–10 (10 is miniz's
// "uber" level), zlib stops at 9.

import type { RemapValue } from '../../../abi/values.js';
import { integerArg } from './args.js';

const MAX_LEVEL = 10n;

export function deflateLevel(level: RemapValue): number {
  const value = integerArg(level, 6n);
  if (value < 0n || value > MAX_LEVEL) throw new Error(`compression level must be <= ${MAX_LEVEL}`);
  return Math.min(Number(value), 9);
}
