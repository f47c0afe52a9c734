import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';
import { sameCollection, keyAndValue } from './support/rules.js';

export default defineFunction({
  name: 'filter',
  category: 'Enumerate',
  description:
    'Keeps the elements of an array or object for which the closure (given the index or key, and the value) returns true.',
  parameters: [{ name: 'value', kinds: K.Object | K.Array, required: true }],
  returns: sameCollection,
  closure: {
    variables: keyAndValue,
    returns: BOOLEAN,
    example: 'filter([1, 2]) -> |index, _value| { index == 0 }',
  },
  backing: { kind: 'intrinsic' },
  examples: [
    {
      title: 'Filter elements',
      source: `. = { "tags": ["foo", "bar", "foo", "baz"] }
filter(array(.tags)) -> |_index, value| {
    value != "foo"
}
`,
      returns: '["bar", "baz"]',
    },
    {
      title: 'Filter object',
      source: 'filter({ "a": 1, "b": 2 }) -> |key, _value| { key == "a" }',
      returns: '{ "a": 1 }',
    },
    { title: 'Filter array', source: 'filter([1, 2]) -> |_index, value| { value < 2 }', returns: '[1]' },
  ],
});
