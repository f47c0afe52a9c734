import { defineFunction } from './define.js';
import { K, ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'includes',
  category: 'Enumerate',
  description: 'Tells whether an array has an item equal to the given value.',
  parameters: [
    { name: 'value', kinds: K.Array, required: true },
    { name: 'item', kinds: ANY_BITS, required: true },
  ],
  returns: BOOLEAN,
  examples: [
    { title: 'Array includes', source: 'includes(["apple", "orange", "banana"], "banana")', returns: 'true' },
    { title: 'Includes boolean', source: 'includes([1, true], true)', returns: 'true' },
    { title: "Doesn't include", source: 'includes(["foo", "bar"], "baz")', returns: 'false' },
  ],
});
