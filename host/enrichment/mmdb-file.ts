// Reading the database file of a geoip or mmdb table on the main thread, checked before it is shared.

import { readFile } from 'node:fs/promises';
import { shared } from './tables.js';

/** The file at `path` in shared memory, once `check` accepted it; errors name the `path` option. */
export async function readDatabase(path: string, check: (bytes: Uint8Array) => unknown): Promise<Uint8Array> {
  const at = (message: string) => new Error(`option "path": "${path}": ${message}`);
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw at(error.code === 'ENOENT' ? 'no such file' : `cannot read it: ${error.message}`);
  });
  try {
    check(bytes);
  } catch (error) {
    throw at((error as Error).message);
  }
  return shared(bytes);
}
