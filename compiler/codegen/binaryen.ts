// The one place that loads binaryen. It is ESM-only with a top-level await and costs ~0.4 s and ~150 MB
// to load, so it is imported lazily, only when a program is actually compiled (not on a cache hit).

import type binaryenNamespace from 'binaryen';

export type Binaryen = typeof binaryenNamespace;
export type BinaryenModule = binaryenNamespace.Module;
export type ExpressionRef = binaryenNamespace.ExpressionRef;

let loading: Promise<Binaryen> | undefined;

export function loadBinaryen(): Promise<Binaryen> {
  loading ??= import('binaryen').then((m) => m.default);
  return loading;
}

/** What the stdlib is built with and Node 20 accepts (`Features.All` yields modules Node rejects). */
export function moduleFeatures(b: Binaryen): number {
  const f = b.Features;
  return f.MutableGlobals | f.NontrappingFPToInt | f.BulkMemory | f.BulkMemoryOpt | f.SignExt;
}
