import { defineFunction } from './define.js';
import { K, BYTES, arrayOf } from '../types/kind.js';

export default defineFunction({
  name: 'keys',
  category: 'Enumerate',
  description: 'Returns the top-level keys of an object as an array of strings.',
  parameters: [{ name: 'value', kinds: K.Object, required: true }],
  returns: arrayOf(BYTES),
  examples: [
    {
      title: 'Get keys from the object',
      source: `keys({
    "key1": "val1",
    "key2": "val2"
})
`,
      returns: '["key1", "key2"]',
    },
  ],
});
