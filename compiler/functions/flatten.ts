import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { sameCollection } from './support/rules.js';

export default defineFunction({
  name: 'flatten',
  category: 'Enumerate',
  description:
    'Flattens nested arrays into one array, or nested objects into one object whose keys are the joined paths (with `separator`); keys listed in `except` stay nested.',
  parameters: [
    { name: 'value', kinds: K.Object | K.Array, required: true },
    { name: 'separator', kinds: K.Bytes, required: false, default: '.' },
    { name: 'except', kinds: K.Array, required: false, default: '[]' },
  ],
  returns: sameCollection,
  examples: [
    {
      title: 'Flatten array',
      source: 'flatten([1, [2, 3, 4], [5, [6, 7], 8], 9])',
      returns: '[1, 2, 3, 4, 5, 6, 7, 8, 9]',
    },
    {
      title: 'Flatten object',
      source: `flatten({
    "parent1": {
        "child1": 1,
        "child2": 2
    },
    "parent2": {
        "child3": 3
    }
})
`,
      returns: '{ "parent1.child1": 1, "parent1.child2": 2, "parent2.child3": 3 }',
    },
    {
      title: 'Flatten object with custom separator',
      source: 'flatten({ "foo": { "bar": true }}, "_")',
      returns: '{ "foo_bar": true }',
    },
    {
      title: 'Flatten object with except',
      source: 'flatten({ "parent": { "child": 1 }, "keep": { "nested": 2 } }, except: ["keep"])',
      returns: '{ "keep": { "nested": 2 }, "parent.child": 1 }',
    },
  ],
});
