// Libraries behind JS functions load on their first call, not when the function table is imported: every
// transform worker imports the table, and most programs call none of them (start-up time and memory).

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter for the CommonJS package `name`, required on first use. */
export function library<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
