import { defineFunction } from './define.js';
import { K, ANY, objectOf } from '../types/kind.js';

export default defineFunction({
  name: 'from_entries',
  category: 'Object',
  description: 'Builds an object from an array of `{ "key": ..., "value": ... }` entries.',
  parameters: [{ name: 'value', kinds: K.Array, required: true }],
  returns: objectOf(ANY),
  examples: [
    { title: 'Manipulate empty array', source: 'from_entries([])', returns: '{}' },
    {
      title: 'Manipulate array',
      source: 'from_entries([{ "key": "foo", "value": "bar" }])',
      returns: '{ "foo": "bar" }',
    },
  ],
});
