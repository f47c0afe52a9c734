import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_base64',
  category: 'Codec',
  description:
    'Encodes a string as Base64 with the standard or the URL-safe alphabet, padded unless `padding` is false.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'padding', kinds: K.Boolean, required: false, default: 'true' },
    {
      name: 'charset',
      kinds: K.Bytes,
      required: false,
      default: 'standard',
      enum: ['standard', 'url_safe'],
      literal: false,
    },
  ],
  returns: BYTES,
  examples: [
    {
      title: 'Encode to Base64 (default)',
      source: 'encode_base64("please encode me")',
      returns: '"cGxlYXNlIGVuY29kZSBtZQ=="',
    },
    {
      title: 'Encode to Base64 (without padding)',
      source: 'encode_base64("please encode me, no padding though", padding: false)',
      returns: '"cGxlYXNlIGVuY29kZSBtZSwgbm8gcGFkZGluZyB0aG91Z2g"',
    },
    {
      title: 'Encode to Base64 (URL safe)',
      source: 'encode_base64("please encode me, but safe for URLs", charset: "url_safe")',
      returns: '"cGxlYXNlIGVuY29kZSBtZSwgYnV0IHNhZmUgZm9yIFVSTHM="',
    },
    {
      title: 'Encode to Base64 (without padding and URL safe)',
      source: 'encode_base64("some string value", padding: false, charset: "url_safe")',
      returns: '"c29tZSBzdHJpbmcgdmFsdWU"',
    },
  ],
});
