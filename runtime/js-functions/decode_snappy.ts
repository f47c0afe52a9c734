// decode_snappy(value): raw (unframed) Snappy data, at most the instance's decompression cap.

import type { JsFunction } from '../imports.js';
import { bytesArg } from './support/args.js';
import { tooLarge } from './support/decompress.js';
import { library } from './support/library.js';

const snappy = library<{ uncompress(bytes: Uint8Array, maxLength?: number): Uint8Array }>('snappyjs');

const LABEL = 'unable to decode value with Snappy decoder: ';

export const decode_snappy: JsFunction = ([value], context) => {
  const cap = context.maxDecompressedSize;
  try {
    return snappy().uncompress(bytesArg(value!), cap);
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(LABEL + (message.startsWith('The uncompressed length') ? tooLarge(cap) : 'snappy: corrupt input'));
  }
};
