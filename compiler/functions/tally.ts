import { defineFunction } from './define.js';
import { K, INTEGER, objectOf } from '../types/kind.js';

export default defineFunction({
  name: 'tally',
  category: 'Enumerate',
  description: 'Counts how many times each string occurs in an array, as an object of counts.',
  parameters: [{ name: 'value', kinds: K.Array, required: true }],
  fallible: true,
  returns: objectOf(INTEGER),
  examples: [
    { title: 'tally', source: 'tally!(["foo", "bar", "foo", "baz"])', returns: '{ "foo": 2, "bar": 1, "baz": 1 }' },
  ],
});
