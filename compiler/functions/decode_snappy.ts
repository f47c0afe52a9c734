import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_snappy',
  category: 'Codec',
  description: 'Decompresses Snappy data (raw block format).',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'snappyjs' },
  examples: [
    {
      title: 'Decode Snappy data',
      source: 'decode_snappy!(decode_base64!("LKxUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgMTMgbGF6eSBkb2dzLg=="))',
      returns: '"The quick brown fox jumps over 13 lazy dogs."',
    },
  ],
});
