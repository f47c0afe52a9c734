import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_integer',
  category: 'Type',
  description: 'Tells whether a value is an integer.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Valid integer', source: 'is_integer(1)', returns: 'true' },
    { title: 'Non-matching type', source: 'is_integer("a string")', returns: 'false' },
    { title: 'Null', source: 'is_integer(null)', returns: 'false' },
  ],
});
