import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_boolean',
  category: 'Type',
  description: 'Tells whether a value is a boolean.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Valid boolean', source: 'is_boolean(false)', returns: 'true' },
    { title: 'Non-matching type', source: 'is_boolean("a string")', returns: 'false' },
    { title: 'Null', source: 'is_boolean(null)', returns: 'false' },
  ],
});
