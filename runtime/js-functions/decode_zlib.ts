// decode_zlib(value): zlib data inflated, at most the instance's decompression cap.

import type { JsFunction } from '../imports.js';
import { bytesArg } from './support/args.js';
import { inflateBounded } from './support/decompress.js';

export const decode_zlib: JsFunction = ([value], context) =>
  inflateBounded('zlib', bytesArg(value!), context.maxDecompressedSize);
