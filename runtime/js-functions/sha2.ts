// sha2(value, variant = "SHA-512/256"): a SHA-2 digest as lowercase hex.

import type { JsFunction } from '../imports.js';
import { hexDigest } from './support/digest.js';

const VARIANTS: Readonly<Record<string, string>> = {
  'SHA-224': 'sha224',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
  'SHA-512/224': 'sha512-224',
  'SHA-512/256': 'sha512-256',
};

export const sha2: JsFunction = ([value, variant]) => hexDigest(VARIANTS, 'SHA-512/256', value!, variant!);
