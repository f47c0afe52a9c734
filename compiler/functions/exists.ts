import { defineFunction } from './define.js';
import { ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'exists',
  category: 'Path',
  description: 'Tells whether a path (field or array index) is present, even when its value is null.',
  parameters: [{ name: 'field', kinds: ANY_BITS, required: true, path: true }],
  returns: BOOLEAN,
  backing: { kind: 'intrinsic' },
  examples: [
    {
      title: 'Exists (field)',
      source: `. = { "field": 1 }
exists(.field)
`,
      returns: 'true',
    },
    {
      title: 'Exists (array element)',
      source: `. = { "array": [1, 2, 3] }
exists(.array[2])
`,
      returns: 'true',
    },
    { title: 'Does not exist (field)', source: 'exists({ "foo": "bar"}.baz)', returns: 'false' },
  ],
});
