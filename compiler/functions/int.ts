import { defineFunction } from './define.js';
import { K, ANY_BITS } from '../types/kind.js';
import { assertionFallible, assertedKind } from './support/rules.js';

export default defineFunction({
  name: 'int',
  category: 'Type',
  description:
    'Returns the value unchanged when it is an integer, and fails otherwise; afterwards the type checker knows it is an integer.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: assertionFallible(K.Integer),
  returns: assertedKind(K.Integer),
  examples: [
    {
      title: 'Declare an integer type',
      source: `. = { "value": 42 }
int(.value)
`,
      returns: '42',
    },
    { title: 'Declare an integer type (literal)', source: 'int(42)', returns: '42' },
    {
      title: 'Invalid integer type',
      source: 'int!(true)',
      raises: 'function call error for "int" at (0:10): expected integer, got boolean',
    },
  ],
});
