import { defineFunction } from './define.js';
import { K, ANY, BYTES, NULL, objectOf, union, elementsOf, isSubset } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'object_from_array',
  category: 'Object',
  description:
    'Builds an object from an array of `[key, value]` pairs, or from an array of values and a `keys` array of the same positions; missing values become null and null keys skip their value.',
  parameters: [
    { name: 'values', kinds: K.Array, required: true },
    { name: 'keys', kinds: K.Array, required: false },
  ],
  // Infallible when the types show every pair is an array, and every key a string or null.
  fallible: (call) => {
    const keys = call.args.keys;
    if (keys) return !isSubset(elementsOf(keys.kind), union(BYTES, NULL));
    return !isSubset(elementsOf(argKind(call, 'values')), { bits: K.Array });
  },
  returns: objectOf(ANY),
  examples: [
    {
      title: 'Create an object from one array',
      source: 'object_from_array([["one", 1], [null, 2], ["two", 3]])',
      returns: '{ "one": 1, "two": 3 }',
    },
    {
      title: 'Create an object from separate key and value arrays',
      source: 'object_from_array([1, 2, 3], keys: ["one", null, "two"])',
      returns: '{ "one": 1, "two": 3 }',
    },
    {
      title: 'Create an object from a separate arrays of keys and values',
      source: 'object_from_array(values: [1, null, true], keys: ["a", "b", "c"])',
      returns: '{ "a": 1, "b": null, "c": true }',
    },
  ],
});
