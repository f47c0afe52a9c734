// xxhash(value, variant = "XXH32"): XXH32, XXH64 and XXH3-64 as integers (64-bit results wrap to signed, as
// VRL's i64), XXH3-128 as a decimal string. hash-wasm's hashers are created once at load (creation is async);
// hashing with them is synchronous.

import { createXXHash128, createXXHash3, createXXHash32, createXXHash64, type IHasher } from 'hash-wasm';
import type { JsFunction } from '../imports.js';
import type { RemapValue } from '../../abi/values.js';
import { bytesArg, stringArg } from './support/args.js';

const [xxh32, xxh64, xxh3, xxh128] = await Promise.all([
  createXXHash32(),
  createXXHash64(),
  createXXHash3(),
  createXXHash128(),
]);

const digest = (hasher: IHasher, bytes: Uint8Array): bigint => BigInt(`0x${hasher.init().update(bytes).digest('hex')}`);

const VARIANTS: Readonly<Record<string, (bytes: Uint8Array) => RemapValue>> = {
  XXH32: (bytes) => digest(xxh32, bytes),
  XXH64: (bytes) => BigInt.asIntN(64, digest(xxh64, bytes)),
  'XXH3-64': (bytes) => BigInt.asIntN(64, digest(xxh3, bytes)),
  'XXH3-128': (bytes) => digest(xxh128, bytes).toString(),
};

export const xxhash: JsFunction = ([value, variant]) => {
  const name = variant === null ? 'XXH32' : stringArg(variant!);
  const hash = VARIANTS[name.toUpperCase()];
  if (hash === undefined) throw new Error("Variant must be either 'XXH32', 'XXH64', 'XXH3-64', or 'XXH3-128'");
  return hash(bytesArg(value!));
};
