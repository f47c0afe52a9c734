import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_snappy',
  category: 'Codec',
  description: 'Compresses a string with Snappy (raw block format).',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'snappyjs' },
  examples: [
    {
      title: 'Encode to Snappy',
      source: 'encode_base64(encode_snappy!("The quick brown fox jumps over 13 lazy dogs."))',
      returns: '"LKxUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgMTMgbGF6eSBkb2dzLg=="',
    },
  ],
});
