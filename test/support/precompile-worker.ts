// One thread of `precompile`: compiles its share of the programs into the module cache.
import { workerData } from 'node:worker_threads';
import { compileToModule, type CompileOptions } from '../../runtime/index.js';

const { sources, options } = workerData as { sources: string[]; options: CompileOptions };
for (const source of sources) {
  try {
    await compileToModule(source, options);
  } catch {
    // A program that does not compile fails in its test, with its diagnostics.
  }
}
