import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_zlib',
  category: 'Codec',
  description: 'Compresses a string with zlib at the given compression level.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'compression_level', kinds: K.Integer, required: false, default: '6' },
  ],
  returns: BYTES,
  backing: { kind: 'js', library: 'node:zlib' },
  examples: [
    {
      title: 'Encode to Zlib',
      source: 'encode_base64(encode_zlib("please encode me"))',
      returns: '"eJwryElNLE5VSM1Lzk9JVchNBQA0RQX7"',
    },
  ],
});
