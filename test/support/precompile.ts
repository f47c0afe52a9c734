// Fills the module cache with compiled programs on every core before a test compiles them one by one:
// compiles are CPU-bound (binaryen), and a test file runs on one thread.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CompileOptions } from '../../runtime/index.js';

/** Compiles `sources` into the module cache on worker threads; compile errors are left to the tests. */
export async function precompile(sources: readonly string[], options: CompileOptions): Promise<void> {
  const unique = [...new Set(sources)];
  const threads = Math.max(1, Math.min(availableParallelism(), unique.length));
  await Promise.all(
    Array.from({ length: threads }, (_, i) => {
      const share = unique.filter((_, at) => at % threads === i);
      const worker = new Worker(new URL('./precompile-worker.js', import.meta.url), {
        workerData: { sources: share, options },
      });
      return new Promise<void>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`precompile worker exited with ${code}`)),
        );
      });
    }),
  );
}
