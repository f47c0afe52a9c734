import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_lz4',
  category: 'Codec',
  description: 'Compresses a string as an LZ4 block, with the original size prepended unless `prepend_size` is false.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'prepend_size', kinds: K.Boolean, required: false, default: 'true' },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'lz4js' },
  examples: [
    {
      title: 'Encode to Lz4',
      source: 'encode_base64(encode_lz4!("The quick brown fox jumps over 13 lazy dogs.", true))',
      returns: '"LAAAAPAdVGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIDEzIGxhenkgZG9ncy4="',
    },
  ],
});
