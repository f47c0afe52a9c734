import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_base16',
  category: 'Codec',
  description: 'Encodes a string as lower-case hexadecimal (Base16).',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: BYTES,
  examples: [
    {
      title: 'Encode to Base16',
      source: 'encode_base16("some string value")',
      returns: '"736f6d6520737472696e672076616c7565"',
    },
  ],
});
