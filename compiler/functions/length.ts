import { defineFunction } from './define.js';
import { K, INTEGER } from '../types/kind.js';

export default defineFunction({
  name: 'length',
  category: 'Enumerate',
  description: 'Returns the number of elements of an array, of top-level keys of an object, or of bytes of a string.',
  parameters: [{ name: 'value', kinds: K.Bytes | K.Object | K.Array, required: true }],
  returns: INTEGER,
  examples: [
    {
      title: 'Length (object)',
      source: `length({
    "portland": "Trail Blazers",
    "seattle": "Supersonics"
})
`,
      returns: '2',
    },
    {
      title: 'Length (nested object)',
      source: `length({
    "home": {
        "city":  "Portland",
        "state": "Oregon"
    },
    "name": "Trail Blazers",
    "mascot": {
        "name": "Blaze the Trail Cat"
    }
})
`,
      returns: '3',
    },
    { title: 'Length (array)', source: 'length(["Trail Blazers", "Supersonics", "Grizzlies"])', returns: '3' },
    { title: 'Length (string)', source: 'length("The Planet of the Apes Musical")', returns: '30' },
  ],
});
