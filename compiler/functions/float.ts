import { defineFunction } from './define.js';
import { K, ANY_BITS } from '../types/kind.js';
import { assertionFallible, assertedKind } from './support/rules.js';

export default defineFunction({
  name: 'float',
  category: 'Type',
  description:
    'Returns the value unchanged when it is a float, and fails otherwise; afterwards the type checker knows it is a float.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: assertionFallible(K.Float),
  returns: assertedKind(K.Float),
  examples: [
    {
      title: 'Declare a float type',
      source: `. = { "value": 42.0 }
float(.value)
`,
      returns: '42.0',
    },
    { title: 'Declare a float type (literal)', source: 'float(3.1415)', returns: '3.1415' },
    {
      title: 'Invalid float type',
      source: 'float!(true)',
      raises: 'function call error for "float" at (0:12): expected float, got boolean',
    },
  ],
});
