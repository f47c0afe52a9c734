import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_zstd',
  category: 'Codec',
  description: 'Compresses a string with Zstandard at the given compression level.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'compression_level', kinds: K.Integer, required: false, default: '3' },
  ],
  returns: BYTES,
  backing: { kind: 'js', library: '@bokuweb/zstd-wasm' },
  examples: [
    {
      title: 'Encode to Zstd',
      source: 'encode_base64(encode_zstd("please encode me"))',
      returns: '"KLUv/QBYgQAAcGxlYXNlIGVuY29kZSBtZQ=="',
    },
  ],
});
