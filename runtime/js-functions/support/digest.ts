// Hex digests by a variant name, for functions whose variant is checked at compile time (sha2, sha3).

import { hash } from 'node:crypto';
import type { RemapValue } from '../../../abi/values.js';
import { bytesArg, stringArg } from './args.js';

/** The hex digest of `value` by the node:crypto hash `variants` names (`variant` absent: `fallback`). */
export function hexDigest(
  variants: Readonly<Record<string, string>>,
  fallback: string,
  value: RemapValue,
  variant: RemapValue,
): string {
  const name = variant === null ? fallback : stringArg(variant);
  const algorithm = variants[name];
  if (algorithm === undefined) throw new Error(`unknown variant: ${name}`);
  // One-shot: a createHash object per call cost twice the digest of a short value.
  return hash(algorithm, bytesArg(value), 'hex');
}
