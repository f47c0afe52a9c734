import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_nullish',
  category: 'Type',
  description:
    'Tells whether a value counts as empty: null, "-", or a string that is empty or only whitespace. Empty arrays and objects do not count.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Null detection (blank string)', source: 'is_nullish("")', returns: 'true' },
    { title: 'Null detection (dash string)', source: 'is_nullish("-")', returns: 'true' },
    {
      title: 'Null detection (whitespace)',
      source: `is_nullish("
  
")`,
      returns: 'true',
    },
    { title: 'Null', source: 'is_nullish(null)', returns: 'true' },
  ],
});
