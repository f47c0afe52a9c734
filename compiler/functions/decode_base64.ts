import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decode_base64',
  category: 'Codec',
  description: 'Decodes a Base64 string written with the standard or the URL-safe alphabet; padding is optional.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    {
      name: 'charset',
      kinds: K.Bytes,
      required: false,
      default: 'standard',
      enum: ['standard', 'url_safe'],
      literal: false,
    },
  ],
  fallible: true,
  returns: BYTES,
  examples: [
    {
      title: 'Decode Base64 data (default)',
      source: 'decode_base64!("eW91IGhhdmUgc3VjY2Vzc2Z1bGx5IGRlY29kZWQgbWU=")',
      returns: '"you have successfully decoded me"',
    },
    {
      title: 'Decode Base64 data (URL safe)',
      source:
        'decode_base64!("eW91IGNhbid0IG1ha2UgeW91ciBoZWFydCBmZWVsIHNvbWV0aGluZyBpdCB3b24ndA==", charset: "url_safe")',
      returns: '"you can\'t make your heart feel something it won\'t"',
    },
  ],
});
