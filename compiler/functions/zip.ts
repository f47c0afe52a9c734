// A single argument must be an array of arrays; two arrays can always be zipped.

import { defineFunction } from './define.js';
import { K, ANY, arrayOf, elementsOf, isSubset } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'zip',
  category: 'Array',
  description:
    'Pairs up the items of several arrays by position into an array of arrays, as long as the shortest input. With a single argument, that argument is the array of input arrays.',
  parameters: [
    { name: 'array_0', kinds: K.Array, required: true },
    { name: 'array_1', kinds: K.Array, required: false },
  ],
  fallible: (call) => !call.args.array_1 && !isSubset(elementsOf(argKind(call, 'array_0')), { bits: K.Array }),
  returns: arrayOf(arrayOf(ANY)),
  examples: [
    { title: 'Merge two arrays', source: 'zip([1, 2, 3], [4, 5, 6, 7])', returns: '[[1, 4], [2, 5], [3, 6]]' },
    { title: 'Merge three arrays', source: 'zip([[1, 2], [3, 4], [5, 6]])', returns: '[[1, 3, 5], [2, 4, 6]]' },
    {
      title: 'Merge an array of three arrays into an array of 3-tuples',
      source: 'zip([["a", "b", "c"], [1, null, true], [4, 5, 6]])',
      returns: '[["a", 1, 4], ["b", null, 5], ["c", true, 6]]',
    },
    {
      title: 'Merge two array parameters',
      source: 'zip([1, 2, 3, 4], [5, 6, 7])',
      returns: '[[1, 5], [2, 6], [3, 7]]',
    },
  ],
});
