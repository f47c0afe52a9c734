import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_empty',
  category: 'Type',
  description: 'Tells whether a string, array or object has a length of zero.',
  parameters: [{ name: 'value', kinds: K.Bytes | K.Object | K.Array, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Empty array', source: 'is_empty([])', returns: 'true' },
    { title: 'Non-empty string', source: 'is_empty("a string")', returns: 'false' },
    { title: 'Non-empty object', source: 'is_empty({"foo": "bar"})', returns: 'false' },
    { title: 'Empty string', source: 'is_empty("")', returns: 'true' },
    { title: 'Empty object', source: 'is_empty({})', returns: 'true' },
    { title: 'Non-empty array', source: 'is_empty([1,2,3])', returns: 'false' },
  ],
});
