import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_zstd',
  category: 'Codec',
  description: 'Decompresses Zstandard data.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: '@bokuweb/zstd-wasm' },
  examples: [
    {
      title: 'Decode Zstd data',
      source:
        'decode_zstd!(decode_base64!("KLUv/QBY/QEAYsQOFKClbQBedqXsb96EWDax/f/F/z+gNU4ZTInaUeAj82KqPFjUzKqhcfDqAIsLvAsnY1bI/N2mHzDixRQA"))',
      returns: '"you_have_successfully_decoded_me.congratulations.you_are_breathtaking."',
    },
  ],
});
