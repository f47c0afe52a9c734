import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { argKind, appendedArray } from './support/rules.js';

export default defineFunction({
  name: 'append',
  category: 'Array',
  description: 'Returns the `value` array with every item of `items` added at its end.',
  parameters: [
    { name: 'value', kinds: K.Array, required: true },
    { name: 'items', kinds: K.Array, required: true },
  ],
  returns: (call) => appendedArray(argKind(call, 'value'), argKind(call, 'items')),
  examples: [{ title: 'Append to an array', source: 'append([1, 2], [3, 4])', returns: '[1, 2, 3, 4]' }],
});
