import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_zlib',
  category: 'Codec',
  description: 'Decompresses zlib data.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'node:zlib' },
  examples: [
    {
      title: 'Decode Zlib data',
      source: 'decode_zlib!(decode_base64!("eJxLzUvOT0mNz00FABI5A6A="))',
      returns: '"encode_me"',
    },
  ],
});
