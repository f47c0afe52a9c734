import { defineFunction } from './define.js';
import { K, ANY_BITS } from '../types/kind.js';
import { assertionFallible, assertedKind } from './support/rules.js';

export default defineFunction({
  name: 'array',
  category: 'Type',
  description:
    'Returns the value unchanged when it is an array, and fails otherwise; afterwards the type checker knows it is an array.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: assertionFallible(K.Array),
  returns: assertedKind(K.Array),
  examples: [
    { title: 'Declare an array type', source: 'array!(.value)', input: { value: [1, 2, 3] }, returns: '[1, 2, 3]' },
    { title: 'Valid array literal', source: 'array([1,2,3])', returns: '[1, 2, 3]' },
    {
      title: 'Invalid type',
      source: 'array!(true)',
      raises: 'function call error for "array" at (0:12): expected array, got boolean',
    },
  ],
});
