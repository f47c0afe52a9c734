import { defineFunction } from './define.js';
import { K, BYTES, arrayOf } from '../types/kind.js';

export default defineFunction({
  name: 'split',
  category: 'String',
  description:
    'Splits a string at each match of a string or regular expression; with `limit`, the rest after that many parts stays unsplit.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'pattern', kinds: K.Bytes | K.Regex, required: true },
    { name: 'limit', kinds: K.Integer, required: false },
  ],
  returns: arrayOf(BYTES),
  examples: [
    {
      title: 'Split a string (no limit)',
      source: 'split("apples and pears and bananas", " and ")',
      returns: '["apples", "pears", "bananas"]',
    },
    {
      title: 'Split a string (with a limit)',
      source: 'split("apples and pears and bananas", " and ", limit: 2)',
      returns: '["apples", "pears and bananas"]',
    },
    { title: 'Split string', source: 'split("foobar", "b")', returns: '["foo", "ar"]' },
    { title: 'Split regex', source: 'split("barbaz", r\'ba\')', returns: '["", "r", "z"]' },
  ],
});
