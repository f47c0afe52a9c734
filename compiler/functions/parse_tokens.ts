import { defineFunction } from './define.js';
import { K, arrayOf } from '../types/kind.js';
import { STRING_OR_NULL } from './support/result-kinds.js';

export default defineFunction({
  name: 'parse_tokens',
  category: 'Parse',
  description:
    'Splits text into tokens: words separated by spaces, double-quoted strings and bracketed text each count as one token; `-` becomes null.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: arrayOf(STRING_OR_NULL),
  backing: { kind: 'js', library: 'JS (hand-written parser)' },
  examples: [
    {
      title: 'Parse tokens',
      source: 'parse_tokens(s\'A sentence "with \\"a\\" sentence inside" and [some brackets]\')',
      returns: '["A", "sentence", "with \\\\\\"a\\\\\\" sentence inside", "and", "some brackets"]',
    },
  ],
});
