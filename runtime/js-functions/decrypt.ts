// decrypt(ciphertext, algorithm, key, iv): the plaintext of one of upstream's symmetric ciphers (./ciphers.ts).

import type { JsFunction } from '../imports.js';
import { bytesArg, stringArg } from './support/args.js';
import { cipherFor } from './support/ciphers.js';

export const decrypt: JsFunction = ([ciphertext, algorithm, key, iv]) => {
  const [keyBytes, ivBytes] = [bytesArg(key!), bytesArg(iv!)];
  return cipherFor(stringArg(algorithm!), keyBytes, ivBytes).decrypt(bytesArg(ciphertext!), keyBytes, ivBytes);
};
