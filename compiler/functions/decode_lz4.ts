import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_lz4',
  category: 'Codec',
  description:
    'Decompresses LZ4 data: an LZ4 frame, or a raw block whose decompressed size is prepended to it (`prepended_size`) or bounded by `buf_size`.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'buf_size', kinds: K.Integer, required: false, default: '1000000' },
    { name: 'prepended_size', kinds: K.Boolean, required: false, default: 'false' },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'lz4js' },
  examples: [
    {
      title: 'LZ4 block with prepended size',
      source:
        'decode_lz4!(decode_base64!("LAAAAPAdVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIDEzIGxhenkgZG9ncy4="), prepended_size: true)',
      returns: '"The quick brown fox jumps over 13 lazy dogs."',
    },
    {
      title: 'Decode Lz4 data without prepended size.',
      source:
        'decode_lz4!(decode_base64!("BCJNGGBAgiwAAIBUaGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgMTMgbGF6eSBkb2dzLgAAAAA="))',
      returns: '"The quick brown fox jumps over 13 lazy dogs."',
    },
  ],
});
