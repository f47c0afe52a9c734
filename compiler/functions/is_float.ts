import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_float',
  category: 'Type',
  description: 'Tells whether a value is a float.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Valid float', source: 'is_float(0.577)', returns: 'true' },
    { title: 'Non-matching type', source: 'is_float("a string")', returns: 'false' },
    { title: 'Boolean', source: 'is_float(true)', returns: 'false' },
    { title: 'Null', source: 'is_float(null)', returns: 'false' },
  ],
});
