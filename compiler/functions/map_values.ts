import { defineFunction } from './define.js';
import { K, ANY, elementsOf } from '../types/kind.js';
import { argKind, replaceElements } from './support/rules.js';

export default defineFunction({
  name: 'map_values',
  category: 'Enumerate',
  description:
    'Replaces each value of an array or object (and, with `recursive`, of nested ones) by what the closure returns for it.',
  parameters: [
    { name: 'value', kinds: K.Object | K.Array, required: true },
    { name: 'recursive', kinds: K.Boolean, required: false, default: 'false' },
  ],
  returns: (call) => replaceElements(argKind(call, 'value'), call.closureReturns ?? ANY),
  closure: {
    variables: (call) => [elementsOf(argKind(call, 'value'))],
    returns: ANY,
    example: 'map_values({ "one" : "one", "two": "two" }) -> |value| { upcase(value) }',
  },
  backing: { kind: 'intrinsic' },
  examples: [
    {
      title: 'Upcase values',
      source: `. = {
    "foo": "foo",
    "bar": "bar"
}
map_values(.) -> |value| { upcase(value) }
`,
      returns: '{ "bar": "BAR", "foo": "FOO" }',
    },
    {
      title: 'Recursively map object values',
      source: `val = {
    "a": 1,
    "b": [{ "c": 2 }, { "d": 3 }],
    "e": { "f": 4 }
}
map_values(val, recursive: true) -> |value| {
    if is_integer(value) { int!(value) + 1 } else { value }
}
`,
      returns: '{ "a": 2, "b": [{ "c": 3 }, { "d": 4 }], "e": { "f": 5 } }',
    },
  ],
});
