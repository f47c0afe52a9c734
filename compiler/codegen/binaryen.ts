// The one place that loads binaryen. It is ESM-only with a top-level await and costs ~150 MB to load, so it
// is imported lazily, only when a program is actually compiled (not on a cache hit).

import { existsSync } from 'node:fs';
import type binaryenNamespace from 'binaryen';

export type Binaryen = typeof binaryenNamespace;
export type BinaryenModule = binaryenNamespace.Module;
export type ExpressionRef = binaryenNamespace.ExpressionRef;

/**
 * The build's split of the package (scripts/split-binaryen.mjs): its glue reads binaryen.wasm beside it,
 * where the package's own index.js embeds the wasm as a 14 MB string literal (~0.45 s of every cold compile).
 */
const SPLIT_DIRECTORY = new URL('../../binaryen/', import.meta.url);

let loading: Promise<Binaryen> | undefined;

export function loadBinaryen(): Promise<Binaryen> {
  loading ??= importBinaryen(SPLIT_DIRECTORY);
  return loading;
}

/** The split in `splitDirectory` when both its files are there, else the package as shipped. */
export async function importBinaryen(splitDirectory: URL): Promise<Binaryen> {
  const glue = new URL('index.js', splitDirectory);
  const split = existsSync(glue) && existsSync(new URL('binaryen.wasm', splitDirectory));
  const module = (await (split ? import(glue.href) : import('binaryen'))) as { default: Binaryen };
  return module.default;
}

/** What the stdlib is built with and Node 20 accepts (`Features.All` yields modules Node rejects). */
export function moduleFeatures(b: Binaryen): number {
  const f = b.Features;
  return f.MutableGlobals | f.NontrappingFPToInt | f.BulkMemory | f.BulkMemoryOpt | f.SignExt;
}
