import { defineFunction } from './define.js';
import { K, ANY, objectOf } from '../types/kind.js';

export default defineFunction({
  name: 'unflatten',
  category: 'Enumerate',
  description:
    'Rebuilds nested objects from keys joined by `separator`; with `recursive`, nested objects are unflattened too. A key that is also a prefix of other keys gives way to them.',
  parameters: [
    { name: 'value', kinds: K.Object, required: true },
    { name: 'separator', kinds: K.Bytes, required: false, default: '.' },
    { name: 'recursive', kinds: K.Boolean, required: false, default: 'true' },
  ],
  returns: objectOf(ANY),
  examples: [
    {
      title: 'Unflatten',
      source: `unflatten({
    "foo.bar.baz": true,
    "foo.bar.qux": false,
    "foo.quux": 42
})
`,
      returns: '{ "foo": { "bar": { "baz": true, "qux": false }, "quux": 42 } }',
    },
    {
      title: 'Unflatten recursively',
      source: `unflatten({
    "flattened.parent": {
        "foo.bar": true,
        "foo.baz": false
    }
})
`,
      returns: '{ "flattened": { "parent": { "foo": { "bar": true, "baz": false } } } }',
    },
    {
      title: 'Unflatten non-recursively',
      source: `unflatten({
    "flattened.parent": {
        "foo.bar": true,
        "foo.baz": false
    }
}, recursive: false)
`,
      returns: '{ "flattened": { "parent": { "foo.bar": true, "foo.baz": false } } }',
    },
    {
      title: 'Ignore inconsistent keys values',
      source: `unflatten({
    "a": 3,
    "a.b": 2,
    "a.c": 4
})
`,
      returns: '{ "a": { "b": 2, "c": 4 } }',
    },
    {
      title: 'Unflatten with custom separator',
      source: 'unflatten({ "foo_bar": true }, "_")',
      returns: '{ "foo": { "bar": true } }',
    },
  ],
});
