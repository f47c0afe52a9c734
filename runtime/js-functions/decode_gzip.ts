// decode_gzip(value): gzip data inflated, at most the instance's decompression cap.

import type { JsFunction } from '../imports.js';
import { bytesArg } from './support/args.js';
import { inflateBounded } from './support/decompress.js';

export const decode_gzip: JsFunction = ([value], context) =>
  inflateBounded('gzip', bytesArg(value!), context.maxDecompressedSize);
