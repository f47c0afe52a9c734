// encode_zlib(value, compression_level = 6): zlib-framed deflate.

import { deflateSync } from 'node:zlib';
import type { JsFunction } from '../imports.js';
import { bytesArg } from './support/args.js';
import { deflateLevel } from './support/compression-level.js';

export const encode_zlib: JsFunction = ([value, level]) =>
  deflateSync(bytesArg(value!), { level: deflateLevel(level!) });
