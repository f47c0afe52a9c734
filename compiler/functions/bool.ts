import { defineFunction } from './define.js';
import { K, ANY_BITS } from '../types/kind.js';
import { assertionFallible, assertedKind } from './support/rules.js';

export default defineFunction({
  name: 'bool',
  category: 'Type',
  description:
    'Returns the value unchanged when it is a boolean, and fails otherwise; afterwards the type checker knows it is a boolean.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: assertionFallible(K.Boolean),
  returns: assertedKind(K.Boolean),
  examples: [
    { title: 'Valid Boolean', source: 'bool(false)', returns: 'false' },
    {
      title: 'Invalid Boolean',
      source: 'bool!(42)',
      raises: 'function call error for "bool" at (0:9): expected boolean, got integer',
    },
    { title: 'Valid Boolean from path', source: 'bool!(.value)', input: { value: true }, returns: 'true' },
  ],
});
