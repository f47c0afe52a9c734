import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_percent',
  category: 'Codec',
  description:
    'Percent-encodes a string; `ascii_set` chooses which ASCII characters are escaped (all non-alphanumeric ones by default).',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    {
      name: 'ascii_set',
      kinds: K.Bytes,
      required: false,
      default: 'NON_ALPHANUMERIC',
      enum: [
        'COMPONENT',
        'CONTROLS',
        'FRAGMENT',
        'NON_ALPHANUMERIC',
        'PATH',
        'QUERY',
        'SPECIAL',
        'USERINFO',
        'WWW_FORM_URLENCODED',
      ],
    },
  ],
  returns: BYTES,
  examples: [
    {
      title: 'Percent encode all non-alphanumeric characters (default)',
      source: 'encode_percent("foo bar?")',
      returns: '"foo%20bar%3F"',
    },
    {
      title: 'Percent encode only control characters',
      source: 'encode_percent("foo \\tbar", ascii_set: "CONTROLS")',
      returns: '"foo %09bar"',
    },
    { title: 'Percent encode special characters', source: 'encode_percent("foo@bar?")', returns: '"foo%40bar%3F"' },
  ],
});
