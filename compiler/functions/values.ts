import { defineFunction } from './define.js';
import { K, arrayOf, only, elementsOf } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'values',
  category: 'Enumerate',
  description: "Returns the values of an object's fields, as an array.",
  parameters: [{ name: 'value', kinds: K.Object, required: true }],
  returns: (call) => arrayOf(elementsOf(only(argKind(call, 'value'), K.Object))),
  examples: [
    {
      title: 'Get values from the object',
      source: 'values({"key1": "val1", "key2": "val2"})',
      returns: '["val1", "val2"]',
    },
    {
      title: 'Get values from a complex object',
      source: 'values({"key1": "val1", "key2": [1, 2, 3], "key3": {"foo": "bar"}})',
      returns: '["val1", [1, 2, 3], { "foo": "bar" }]',
    },
  ],
});
