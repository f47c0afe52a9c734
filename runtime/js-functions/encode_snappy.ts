// encode_snappy(value): raw (unframed) Snappy; fails, as snap does, for input past Snappy's 32-bit length.

import type { JsFunction } from '../imports.js';
import { bytesArg } from './support/args.js';
import { library } from './support/library.js';

const snappy = library<{ compress(bytes: Uint8Array): Uint8Array }>('snappyjs');

const MAX_INPUT = 0xffffffff;

export const encode_snappy: JsFunction = ([value]) => {
  const bytes = bytesArg(value!);
  if (bytes.length > MAX_INPUT) {
    throw new Error(
      `unable to encode value with Snappy encoder: snappy: input buffer (size = ${bytes.length}) is larger than allowed (size = ${MAX_INPUT})`,
    );
  }
  return snappy().compress(bytes);
};
