import { defineFunction } from './define.js';
import { K, SCALARS, ANY_BITS, ANY, NULL, objectOf, arrayOf, union, type Kind } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'tag_types_externally',
  category: 'Type',
  description:
    'Wraps every scalar, including those nested in objects and arrays, in an object that names its type, such as `{ "integer": 1 }`. Null stays null.',
  parameters: [{ name: 'value', kinds: ANY_BITS, required: true }],
  returns: (call) => {
    const value = argKind(call, 'value');
    const parts: Kind[] = [];
    // Scalars get wrapped in an object and objects stay objects; arrays stay arrays and null stays null.
    if (value.bits & ((SCALARS & ~K.Null) | K.Object)) parts.push(objectOf(ANY));
    if (value.bits & K.Array) parts.push(arrayOf(ANY));
    if (value.bits & K.Null) parts.push(NULL);
    return union(...parts);
  },
  examples: [
    { title: 'Tag types externally (scalar)', source: 'tag_types_externally(123)', returns: '{ "integer": 123 }' },
    {
      title: 'Tag types externally (object)',
      source: `tag_types_externally({
    "message": "Hello world",
    "request": {
        "duration_ms": 67.9
    }
})
`,
      returns: '{ "message": { "string": "Hello world" }, "request": { "duration_ms": { "float": 67.9 } } }',
    },
    {
      title: 'Tag types externally (array)',
      source: 'tag_types_externally(["foo", "bar"])',
      returns: '[{ "string": "foo" }, { "string": "bar" }]',
    },
    { title: 'Tag types externally (null)', source: 'tag_types_externally(null)', returns: 'null' },
  ],
});
