// encode_lz4(value, prepend_size = true): one raw LZ4 block (lz4_flex's `compress`), after its little-endian
// u32 size with `prepend_size` (`compress_prepend_size`).

import type { JsFunction } from '../imports.js';
import { booleanArg, bytesArg } from './support/args.js';
import { library } from './support/library.js';

const lz4 = library<typeof import('lz4js')>('lz4js');

/** lz4js's match table, cleared before each use. */
const hashTable = new Uint32Array(1 << 16);
const MAX_INPUT = 0x7e000000;

export const encode_lz4: JsFunction = ([value, prependSize]) => {
  const bytes = bytesArg(value!);
  if (bytes.length > MAX_INPUT) throw new Error('unable to encode value with lz4: input too large');
  const header = booleanArg(prependSize!, true) ? 4 : 0;
  const out = new Uint8Array(header + lz4().compressBound(bytes.length));
  new DataView(out.buffer).setUint32(0, bytes.length, true);
  hashTable.fill(0);
  let length = lz4().compressBlock(bytes, out.subarray(header), 0, bytes.length, hashTable);
  // No match at all: a block of literals only.
  if (length === 0) length = writeLiterals(bytes, out.subarray(header));
  return out.subarray(0, header + length);
};

function writeLiterals(bytes: Uint8Array, out: Uint8Array): number {
  let at = 0;
  const count = bytes.length;
  out[at++] = Math.min(count, 15) << 4;
  if (count >= 15) {
    let rest = count - 15;
    for (; rest >= 255; rest -= 255) out[at++] = 255;
    out[at++] = rest;
  }
  out.set(bytes, at);
  return at + count;
}
