import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'match_any',
  category: 'String',
  description:
    'Tells whether a string matches any of an array of literal regular expressions, tested together in one pass.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'patterns', kinds: K.Array, required: true, literal: true },
  ],
  returns: BOOLEAN,
  examples: [
    {
      title: 'Regex match on a string',
      source: "match_any(\"I'm a little teapot\", [r'frying pan', r'teapot'])",
      returns: 'true',
    },
    {
      title: 'No match',
      source: "match_any(\"My name is John Doe\", patterns: [r'\\d+', r'Jane'])",
      returns: 'false',
    },
  ],
});
