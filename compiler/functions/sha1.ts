import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'sha1',
  category: 'Cryptography',
  description: 'Computes the SHA-1 digest of a string, as lowercase hex.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  backing: { kind: 'js', library: 'node:crypto' },
  returns: BYTES,
  examples: [
    { title: 'Calculate sha1 hash', source: 'sha1("foo")', returns: '"0beec7b5ea3f0fdbc95d0dd47f3c5bc275da8a33"' },
  ],
});
