import { defineFunction } from './define.js';
import { K, ANY_BITS, INTEGER } from '../types/kind.js';

export default defineFunction({
  name: 'tally_value',
  category: 'Enumerate',
  description: 'Counts how many items of an array equal a value.',
  parameters: [
    { name: 'array', kinds: K.Array, required: true },
    { name: 'value', kinds: ANY_BITS, required: true },
  ],
  returns: INTEGER,
  examples: [
    { title: 'count matching values', source: 'tally_value(["foo", "bar", "foo", "baz"], "foo")', returns: '2' },
  ],
});
