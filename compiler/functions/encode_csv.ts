import { defineFunction } from './define.js';
import { K, ANY_BITS, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encode_csv',
  category: 'Codec',
  description:
    'Writes an array of values as a single CSV record, quoting fields that need it; the delimiter must be one byte.',
  parameters: [
    { name: 'value', kinds: ANY_BITS, required: true },
    { name: 'delimiter', kinds: K.Bytes, required: false, default: ',' },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'JS (hand-written writer)' },
  examples: [
    {
      title: 'Encode object to a single CSV formatted row',
      source: 'encode_csv!(["foo","bar","foo \\", bar"])',
      returns: '"foo,bar,\\"foo \\"\\", bar\\""',
    },
    {
      title: 'Encode object to a single CSV formatted row with custom delimiter',
      source: 'encode_csv!(["foo","bar"], delimiter: " ")',
      returns: '"foo bar"',
    },
    {
      title: 'Encode object to a single CSV formatted row with linebreaks',
      source: 'encode_csv!(["line", "with_linebreak", "here\\n", "and", "\\nhere"])',
      returns: '"line,with_linebreak,\\"here\\n\\",and,\\"\\nhere\\""',
    },
  ],
});
