import { defineFunction } from './define.js';
import { K, ANY_BITS } from '../types/kind.js';
import { assertionFallible, assertedKind } from './support/rules.js';

export default defineFunction({
  name: 'object',
  category: 'Type',
  description:
    'Returns the value unchanged when it is an object, and fails otherwise; afterwards the type checker knows it is an object.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: assertionFallible(K.Object),
  returns: assertedKind(K.Object),
  examples: [
    {
      title: 'Declare an object type',
      source: `. = { "value": { "field1": "value1", "field2": "value2" } }
object(.value)
`,
      returns: '{ "field1": "value1", "field2": "value2" }',
    },
    {
      title: 'Invalid type',
      source: 'object!(true)',
      raises: 'function call error for "object" at (0:13): expected object, got boolean',
    },
  ],
});
