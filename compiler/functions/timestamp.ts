import { defineFunction } from './define.js';
import { K, ANY_BITS } from '../types/kind.js';
import { assertionFallible, assertedKind } from './support/rules.js';

export default defineFunction({
  name: 'timestamp',
  category: 'Type',
  description:
    'Returns the value when it is a timestamp and fails otherwise, so that the checker then knows it is a timestamp.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  fallible: assertionFallible(K.Timestamp),
  returns: assertedKind(K.Timestamp),
  examples: [
    {
      title: 'Declare a timestamp type',
      source: "timestamp(t'2020-10-10T16:00:00Z')",
      returns: "t'2020-10-10T16:00:00Z'",
    },
    {
      title: 'Invalid type',
      source: 'timestamp!(true)',
      raises: 'function call error for "timestamp" at (0:16): expected timestamp, got boolean',
    },
  ],
});
