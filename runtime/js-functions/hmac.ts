// hmac(value, key, algorithm = "SHA-256"): the raw HMAC bytes. The algorithm may be any string expression,
// so an unknown one fails at run time.

import { createHmac } from 'node:crypto';
import type { JsFunction } from '../imports.js';
import { bytesArg, stringArg } from './support/args.js';

const ALGORITHMS: Readonly<Record<string, string>> = {
  'SHA-224': 'sha224',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
  SHA1: 'sha1',
};

export const hmac: JsFunction = ([value, key, algorithm]) => {
  const name = algorithm === null ? 'SHA-256' : stringArg(algorithm!);
  const hash = ALGORITHMS[name];
  if (hash === undefined) throw new Error(`Invalid algorithm: ${name}`);
  return createHmac(hash, bytesArg(key!)).update(bytesArg(value!)).digest();
};
