import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_gzip',
  category: 'Codec',
  description: 'Compresses a string with gzip at the given compression level.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'compression_level', kinds: K.Integer, required: false, default: '6' },
  ],
  returns: BYTES,
  backing: { kind: 'js', library: 'node:zlib' },
  examples: [
    {
      title: 'Encode to Gzip',
      source: 'encode_base64(encode_gzip("please encode me"))',
      returns: '"H4sIAAAAAAAA/yvISU0sTlVIzUvOT0lVyE0FAI4R4vcQAAAA"',
    },
  ],
});
