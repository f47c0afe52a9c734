import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_string',
  category: 'Type',
  description: 'Tells whether a value is a string.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Valid string', source: 'is_string("a string")', returns: 'true' },
    { title: 'Non-matching type', source: 'is_string([1, 2, 3])', returns: 'false' },
    { title: 'Boolean', source: 'is_string(true)', returns: 'false' },
    { title: 'Null', source: 'is_string(null)', returns: 'false' },
  ],
});
