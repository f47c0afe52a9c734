import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_regex',
  category: 'Type',
  description: 'Tells whether a value is a regular expression.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Valid regex', source: "is_regex(r'pattern')", returns: 'true' },
    { title: 'Non-matching type', source: 'is_regex("a string")', returns: 'false' },
    { title: 'Null value', source: 'is_regex(null)', returns: 'false' },
  ],
});
