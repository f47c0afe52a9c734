import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';
import { fallibleUnlessKnownAlgorithm } from './support/rules.js';

/** Checked at run time (the call is infallible when it is absent or a literal among these). */
const ALGORITHMS = ['SHA-224', 'SHA-256', 'SHA-384', 'SHA-512', 'SHA1'];

export default defineFunction({
  name: 'hmac',
  category: 'Cryptography',
  description:
    'Computes the HMAC of a string under a key with SHA-256 (by default), SHA-1 or another SHA-2 variant, and returns the raw digest bytes.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'key', kinds: K.Bytes, required: true },
    { name: 'algorithm', kinds: K.Bytes, required: false, default: 'SHA-256', enum: ALGORITHMS, literal: false },
  ],
  fallible: fallibleUnlessKnownAlgorithm('algorithm', ALGORITHMS),
  backing: { kind: 'js', library: 'node:crypto' },
  returns: BYTES,
  examples: [
    {
      title: 'Calculate message HMAC (defaults: SHA-256), encoding to a base64 string',
      source: 'encode_base64(hmac("Hello there", "super-secret-key"))',
      returns: '"eLGE8YMviv85NPXgISRUZxstBNSU47JQdcXkUWcClmI="',
    },
    {
      title: 'Calculate message HMAC using SHA-224, encoding to a hex-encoded string',
      source: 'encode_base16(hmac("Hello there", "super-secret-key", algorithm: "SHA-224"))',
      returns: '"42fccbc2b7d22a143b92f265a8046187558a94d11ddbb30622207e90"',
    },
    {
      title: 'Calculate message HMAC using SHA1, encoding to a base64 string',
      source: 'encode_base64(hmac("Hello there", "super-secret-key", algorithm: "SHA1"))',
      returns: '"MiyBIHO8Set9+6crALiwkS0yFPE="',
    },
    {
      title: 'Calculate message HMAC using a variable hash algorithm',
      source: `.hash_algo = "SHA-256"
hmac_bytes, err = hmac("Hello there", "super-secret-key", algorithm: .hash_algo)
if err == null {
    .hmac = encode_base16(hmac_bytes)
}
`,
      returns: '"78b184f1832f8aff3934f5e0212454671b2d04d494e3b25075c5e45167029662"',
    },
  ],
});
