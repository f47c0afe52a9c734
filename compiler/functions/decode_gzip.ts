import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_gzip',
  category: 'Codec',
  description: 'Decompresses gzip data.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'node:zlib' },
  examples: [
    {
      title: 'Decode Gzip data',
      source: 'decode_gzip!(decode_base64!("H4sIAB8BymMAAyvISU0sTlVISU3OT0lVyE0FAJsZ870QAAAA"))',
      returns: '"please decode me"',
    },
  ],
});
