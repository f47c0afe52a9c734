import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'sha2',
  category: 'Cryptography',
  description: 'Computes a SHA-2 digest of a string (SHA-512/256 unless `variant` says otherwise), as lowercase hex.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    {
      name: 'variant',
      kinds: K.Bytes,
      required: false,
      default: 'SHA-512/256',
      enum: ['SHA-224', 'SHA-256', 'SHA-384', 'SHA-512', 'SHA-512/224', 'SHA-512/256'],
    },
  ],
  backing: { kind: 'js', library: 'node:crypto' },
  returns: BYTES,
  examples: [
    {
      title: 'Calculate sha2 hash using default variant',
      source: 'sha2("foobar")',
      returns: '"d014c752bc2be868e16330f47e0c316a5967bcbc9c286a457761d7055b9214ce"',
    },
    {
      title: 'Calculate sha2 hash with SHA-512/224',
      source: 'sha2("foo", variant: "SHA-512/224")',
      returns: '"d68f258d37d670cfc1ec1001a0394784233f88f056994f9a7e5e99be"',
    },
    {
      title: 'Calculate sha2 hash with SHA-384',
      source: 'sha2("foobar", "SHA-384")',
      returns: '"3c9c30d9f665e74d515c842960d4a451c83a0125fd3de7392d7b37231af10c72ea58aedfcdf89a5765bf902af93ecf06"',
    },
  ],
});
