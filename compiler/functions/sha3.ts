import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'sha3',
  category: 'Cryptography',
  description: 'Computes a SHA-3 digest of a string (SHA3-512 unless `variant` says otherwise), as lowercase hex.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    {
      name: 'variant',
      kinds: K.Bytes,
      required: false,
      default: 'SHA3-512',
      enum: ['SHA3-224', 'SHA3-256', 'SHA3-384', 'SHA3-512'],
    },
  ],
  backing: { kind: 'js', library: 'node:crypto' },
  returns: BYTES,
  examples: [
    {
      title: 'Calculate sha3 hash using default variant',
      source: 'sha3("foobar")',
      returns:
        '"ff32a30c3af5012ea395827a3e99a13073c3a8d8410a708568ff7e6eb85968fccfebaea039bc21411e9d43fdb9a851b529b9960ffea8679199781b8f45ca85e2"',
    },
    {
      title: 'Calculate sha3 hash with SHA3-224',
      source: 'sha3("foo", variant: "SHA3-224")',
      returns: '"f4f6779e153c391bbd29c95e72b0708e39d9166c7cea51d1f10ef58a"',
    },
    {
      title: 'Calculate sha3 hash with SHA3-384',
      source: 'sha3("foobar", "SHA3-384")',
      returns: '"0fa8abfbdaf924ad307b74dd2ed183b9a4a398891a2f6bac8fd2db7041b77f068580f9c6c66f699b496c2da1cbcc7ed8"',
    },
  ],
});
