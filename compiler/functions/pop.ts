import { defineFunction } from './define.js';
import { K, arrayOf, exactArray, only, elementsOf } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'pop',
  category: 'Array',
  description: 'Returns the array without its last item; the argument itself is left unchanged.',
  parameters: [{ name: 'value', kinds: K.Array, required: true }],
  returns: (call) => {
    const value = only(argKind(call, 'value'), K.Array);
    const items = value.array;
    const known = items ? [...items.known].sort(([a], [b]) => a - b).map(([, kind]) => kind) : [];
    // Only an array whose length is known loses a known last item.
    const fixedLength = items && !items.unknown && !known.some((kind) => kind.bits & K.Undefined);
    return fixedLength ? exactArray(known.slice(0, -1)) : arrayOf(elementsOf(value));
  },
  examples: [{ title: 'Pop an item from an array', source: 'pop([1, 2, 3])', returns: '[1, 2]' }],
});
