import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_null',
  category: 'Type',
  description: 'Tells whether a value is null.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Null value', source: 'is_null(null)', returns: 'true' },
    { title: 'Non-matching type', source: 'is_null("a string")', returns: 'false' },
    { title: 'Array', source: 'is_null([1, 2, 3])', returns: 'false' },
  ],
});
