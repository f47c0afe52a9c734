// The golden vectors of the binary value codec (test/vectors/values.json, docs/abi.md §1). A vector's
// `value` is written in a JSON form that keeps kinds apart: null, booleans, strings and arrays as
// themselves, `{"int": "<decimal>"}`, `{"float": <number> | "inf" | "-inf" | "-0"}`, `{"bytes_hex": ...}` for
// bytes that are not UTF-8, `{"ts": "<nanoseconds>"}`, `{"regex": "<pattern>"}`, `{"object": {...}}`.

import { readFileSync } from 'node:fs';
import { Regex, Timestamp, type RemapValue } from '../../abi/values.js';

export interface Vector {
  name: string;
  hex: string;
  value: unknown;
}

// Compiled to dist-test/test/support/: the JSON stays in the source tree.
const vectorsPath = new URL('../../../test/vectors/values.json', import.meta.url);

export const VECTORS: readonly Vector[] = JSON.parse(readFileSync(vectorsPath, 'utf8'));

const SPECIAL_FLOATS: Record<string, number> = { inf: Infinity, '-inf': -Infinity, '-0': -0 };

/** The JS value (abi/values.ts mapping) of a vector's JSON form. */
export function valueOf(form: unknown): RemapValue {
  if (form === null || typeof form === 'boolean' || typeof form === 'string') return form;
  if (Array.isArray(form)) return form.map(valueOf);
  const [[tag, x]] = Object.entries(form as Record<string, unknown>) as [[string, unknown]];
  switch (tag) {
    case 'int':
      return BigInt(x as string);
    case 'float':
      return typeof x === 'string' ? SPECIAL_FLOATS[x]! : (x as number);
    case 'bytes_hex':
      return new Uint8Array(Buffer.from(x as string, 'hex'));
    case 'ts':
      return new Timestamp(BigInt(x as string));
    case 'regex':
      return new Regex(x as string);
    case 'object': {
      const out: Record<string, RemapValue> = {};
      for (const [key, v] of Object.entries(x as Record<string, unknown>)) {
        Object.defineProperty(out, key, { value: valueOf(v), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
  }
  throw new Error(`unknown vector form ${JSON.stringify(form)}`);
}

/**
 * Whether the JS value encodes back to the vector's kinds: an integral float (other than -0) cannot,
 * since a JS number that is an integer encodes as an integer (the input mapping).
 */
export function encodableFromJs(form: unknown): boolean {
  if (form === null || typeof form !== 'object') return true;
  if (Array.isArray(form)) return form.every(encodableFromJs);
  const [[tag, x]] = Object.entries(form as Record<string, unknown>);
  if (tag === 'float') return typeof x === 'string' || !Number.isSafeInteger(x);
  if (tag === 'object') return Object.values(x as Record<string, unknown>).every(encodableFromJs);
  return true;
}

export const hexOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
export const bytesOf = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, 'hex'));
