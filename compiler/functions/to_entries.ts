import { defineFunction } from './define.js';
import { K, BYTES, INTEGER, arrayOf, exactObject, union, elementsOf, type Kind } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'to_entries',
  category: 'Object',
  description:
    'Turns an object or array into an array of `{ key, value }` objects, the key being the field name or the index.',
  parameters: [{ name: 'value', kinds: K.Object | K.Array, required: true }],
  returns: (call) => {
    const value = argKind(call, 'value');
    const keys: Kind[] = [];
    if (value.bits & K.Object) keys.push(BYTES);
    if (value.bits & K.Array) keys.push(INTEGER);
    return arrayOf(exactObject({ key: union(...keys), value: elementsOf(value) }));
  },
  examples: [
    { title: 'Manipulate empty object', source: 'to_entries({})', returns: '[]' },
    {
      title: 'Manipulate object',
      source: 'to_entries({ "foo": "bar"})',
      returns: '[{ "key": "foo", "value": "bar" }]',
    },
    {
      title: 'Manipulate array',
      source: 'to_entries([1, 2])',
      returns: '[{ "key": 0, "value": 1 }, { "key": 1, "value": 2 }]',
    },
  ],
});
