import { defineFunction } from './define.js';
import { K, ANY, NULL } from '../types/kind.js';
import { keyAndValue } from './support/rules.js';

export default defineFunction({
  name: 'for_each',
  category: 'Enumerate',
  description:
    'Runs the closure once for each element of an array or object, given the index or key and the value; returns null.',
  parameters: [{ name: 'value', kinds: K.Object | K.Array, required: true }],
  returns: NULL,
  closure: {
    variables: keyAndValue,
    returns: ANY,
    example: 'for_each([1, 2]) -> |index, value| { .foo = to_int!(.foo) + index + value }',
  },
  backing: { kind: 'intrinsic' },
  examples: [
    {
      title: 'Tally elements',
      source: `.tags = ["foo", "bar", "foo", "baz"]
tally = {}
for_each(array(.tags)) -> |_index, value| {
    count = int(get!(tally, [value])) ?? 0
    tally = set!(tally, [value], count + 1)
}
tally
`,
      returns: '{ "bar": 1, "baz": 1, "foo": 2 }',
    },
    {
      title: 'Iterate over an object',
      source: `count = 0
for_each({ "a": 1, "b": 2 }) -> |_key, value| {
    count = count + value
}
count
`,
      returns: '3',
    },
    {
      title: 'Iterate over an array',
      source: `count = 0
for_each([1, 2, 3]) -> |index, value| {
    count = count + index + value
}
count
`,
      returns: '9',
    },
  ],
});
