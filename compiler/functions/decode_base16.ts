import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_base16',
  category: 'Codec',
  description: 'Decodes a hexadecimal (Base16) string into the bytes it stands for.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  examples: [
    {
      title: 'Decode Base16 data',
      source: 'decode_base16!("736F6D6520737472696E672076616C7565")',
      returns: '"some string value"',
    },
    {
      title: 'Decode longer Base16 data',
      source: 'decode_base16!("796f752068617665207375636365737366756c6c79206465636f646564206d65")',
      returns: '"you have successfully decoded me"',
    },
  ],
});
