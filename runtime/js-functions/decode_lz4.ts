// decode_lz4(value, buf_size = 1000000, prepended_size = false): an LZ4 frame (by its magic number), else a
// raw block whose size is prepended to it or at most `buf_size`; never more than the decompression cap.

import type { JsFunction } from '../imports.js';
import { decodeLz4Block, decodeLz4Frames, decodeLz4SizePrepended, isLz4Frame, Lz4Error } from './support/lz4.js';
import { booleanArg, bytesArg, integerArg } from './support/args.js';
import { tooLarge } from './support/decompress.js';

export const decode_lz4: JsFunction = ([value, bufSize, prependedSize], context) => {
  const bytes = bytesArg(value!);
  const capacity = integerArg(bufSize!, 1_000_000n);
  const prepended = booleanArg(prependedSize!, false);
  const cap = context.maxDecompressedSize;
  const frame = isLz4Frame(bytes);
  const label = `unable to decode value with lz4 ${frame ? 'frame' : 'block'} decoder: `;
  if (capacity < 0n) throw new Error('buf_size must be a positive integer');
  try {
    if (frame) return decodeLz4Frames(bytes, cap);
    if (prepended) return decodeLz4SizePrepended(bytes, cap);
    if (capacity > BigInt(cap)) throw new Error(tooLarge(cap));
    return decodeLz4Block(bytes, Number(capacity));
  } catch (error) {
    throw new Error(label + (error instanceof Lz4Error ? error.message : tooLarge(cap)));
  }
};
