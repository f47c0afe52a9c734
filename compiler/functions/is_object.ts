import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_object',
  category: 'Type',
  description: 'Tells whether a value is an object.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Valid object', source: 'is_object({"foo": "bar"})', returns: 'true' },
    { title: 'Non-matching type', source: 'is_object("a string")', returns: 'false' },
    { title: 'Boolean', source: 'is_object(true)', returns: 'false' },
  ],
});
