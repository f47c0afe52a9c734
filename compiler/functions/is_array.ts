import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_array',
  category: 'Type',
  description: 'Tells whether a value is an array.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Valid array', source: 'is_array([1, 2, 3])', returns: 'true' },
    { title: 'Non-matching type', source: 'is_array("a string")', returns: 'false' },
    { title: 'Boolean', source: 'is_array(true)', returns: 'false' },
    { title: 'Null', source: 'is_array(null)', returns: 'false' },
  ],
});
