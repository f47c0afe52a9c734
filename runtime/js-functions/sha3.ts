// sha3(value, variant = "SHA3-512"): a SHA-3 digest as lowercase hex.

import type { JsFunction } from '../imports.js';
import { hexDigest } from './support/digest.js';

const VARIANTS: Readonly<Record<string, string>> = {
  'SHA3-224': 'sha3-224',
  'SHA3-256': 'sha3-256',
  'SHA3-384': 'sha3-384',
  'SHA3-512': 'sha3-512',
};

export const sha3: JsFunction = ([value, variant]) => hexDigest(VARIANTS, 'SHA3-512', value!, variant!);
