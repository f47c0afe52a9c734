import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_timestamp',
  category: 'Type',
  description: 'Tells whether a value is a timestamp.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Valid timestamp', source: "is_timestamp(t'2021-03-26T16:00:00Z')", returns: 'true' },
    { title: 'Non-matching type', source: 'is_timestamp("a string")', returns: 'false' },
    { title: 'Boolean value', source: 'is_timestamp(true)', returns: 'false' },
  ],
});
