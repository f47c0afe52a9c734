// encrypt(plaintext, algorithm, key, iv): the ciphertext of one of upstream's symmetric ciphers (./ciphers.ts).

import type { JsFunction } from '../imports.js';
import { bytesArg, stringArg } from './support/args.js';
import { cipherFor } from './support/ciphers.js';

export const encrypt: JsFunction = ([plaintext, algorithm, key, iv]) => {
  const [keyBytes, ivBytes] = [bytesArg(key!), bytesArg(iv!)];
  return cipherFor(stringArg(algorithm!), keyBytes, ivBytes).encrypt(bytesArg(plaintext!), keyBytes, ivBytes);
};
