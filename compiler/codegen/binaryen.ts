// The one place that loads binaryen. It is ESM-only with a top-level await and costs ~150 MB to load, so it
// is imported lazily, only when a program is actually compiled (not on a cache hit).

import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type binaryenNamespace from 'binaryen';
import { BINARYEN_SPLIT_URL } from '../build-files.js';

export type Binaryen = typeof binaryenNamespace;
export type BinaryenModule = binaryenNamespace.Module;
export type ExpressionRef = binaryenNamespace.ExpressionRef;

let loading: Promise<Binaryen> | undefined;

/**
 * binaryen from the build's split: its glue reads binaryen.wasm beside it, where the package's own index.js
 * embeds the wasm as a 14 MB string literal (~0.45 s of every cold compile).
 */
export function loadBinaryen(): Promise<Binaryen> {
  loading ??= withBaselineWasm(() => importBinaryen(BINARYEN_SPLIT_URL));
  return loading;
}

let baselineTier = false;
let baselineDepth = 0;

/**
 * Makes binaryen run with V8's optimizing wasm compiler off. A compile runs most of binaryen's 10 MB of
 * wasm once, yet V8 queued its busier functions for optimization on background threads: on two cores they
 * took half the main thread's time and held the process's exit until done (a cold `svc vrl` 1.2–1.7 s,
 * 0.6–0.8 s without, on a busy machine). The V8 flag is process-wide and a wasm function first called
 * while it is on stays at the baseline tier for good, so this is for processes where no other thread runs
 * wasm while they compile (`svc vrl` and its REPL): a pipeline's workers may be starting their programs
 * meanwhile.
 */
export function runBinaryenAtBaselineTier(): void {
  baselineTier = true;
}

/** Runs `work`, binaryen's calls, at the baseline tier when `runBinaryenAtBaselineTier` asked for it. */
export async function withBaselineWasm<T>(work: () => T | Promise<T>): Promise<T> {
  if (!baselineTier) return work();
  if (baselineDepth++ === 0) setFlagsFromString('--liftoff-only');
  try {
    return await work();
  } finally {
    // `--liftoff-only` turned V8's tier-up off, and turning it off again leaves that off.
    if (--baselineDepth === 0) setFlagsFromString('--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering');
  }
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
