import { defineFunction } from './define.js';
import { K, BYTES, arrayOf } from '../types/kind.js';

export default defineFunction({
  name: 'parse_csv',
  category: 'Parse',
  description: 'Parses the first row of CSV text into an array of strings; `delimiter` must be a single byte.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'delimiter', kinds: K.Bytes, required: false, default: ',' },
  ],
  fallible: true,
  returns: arrayOf(BYTES),
  backing: { kind: 'js', library: 'JS (hand-written parser)' },
  examples: [
    {
      title: 'Parse a single CSV formatted row',
      source: 'parse_csv!(s\'foo,bar,"foo "", bar"\')',
      returns: '["foo", "bar", "foo \\", bar"]',
    },
    {
      title: 'Parse a single CSV formatted row with custom delimiter',
      source: 'parse_csv!("foo bar", delimiter: " ")',
      returns: '["foo", "bar"]',
    },
  ],
});
