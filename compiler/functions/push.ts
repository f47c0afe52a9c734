import { defineFunction } from './define.js';
import { K, ANY_BITS, exactArray, only } from '../types/kind.js';
import { argKind, appendedArray } from './support/rules.js';

export default defineFunction({
  name: 'push',
  category: 'Array',
  description: 'Returns the array with one item added at its end; the argument itself is left unchanged.',
  parameters: [
    { name: 'value', kinds: K.Array, required: true },
    { name: 'item', kinds: ANY_BITS, required: true },
  ],
  returns: (call) => appendedArray(only(argKind(call, 'value'), K.Array), exactArray([argKind(call, 'item')])),
  examples: [
    { title: 'Push an item onto an array', source: 'push([1, 2], 3)', returns: '[1, 2, 3]' },
    { title: 'Empty array', source: 'push([], "bar")', returns: '["bar"]' },
  ],
});
