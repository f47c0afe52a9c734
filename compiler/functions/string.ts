import { defineFunction } from './define.js';
import { K, ANY_BITS } from '../types/kind.js';
import { assertionFallible, assertedKind } from './support/rules.js';

export default defineFunction({
  name: 'string',
  category: 'Type',
  description:
    'Returns the value when it is a string and fails otherwise, so that the checker then knows it is a string.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: assertionFallible(K.Bytes),
  returns: assertedKind(K.Bytes),
  examples: [
    {
      title: 'Declare a string type',
      source: `. = { "message": "{\\"field\\": \\"value\\"}" }
string(.message)
`,
      returns: '"{\\"field\\": \\"value\\"}"',
    },
    {
      title: 'Invalid type',
      source: 'string!(true)',
      raises: 'function call error for "string" at (0:13): expected string, got boolean',
    },
  ],
});
