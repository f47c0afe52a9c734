// encode_gzip(value, compression_level = 6): gzip with flate2's header (mtime 0, OS byte 255 "unknown").

import { gzipSync } from 'node:zlib';
import type { JsFunction } from '../imports.js';
import { bytesArg } from './support/args.js';
import { deflateLevel } from './support/compression-level.js';

const OS_OFFSET = 9;
const OS_UNKNOWN = 255;

export const encode_gzip: JsFunction = ([value, level]) => {
  const out = gzipSync(bytesArg(value!), { level: deflateLevel(level!) });
  out[OS_OFFSET] = OS_UNKNOWN;
  return out;
};
