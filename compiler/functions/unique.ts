import { defineFunction } from './define.js';
import { K, arrayOf, only, elementsOf } from '../types/kind.js';
import { argKind } from './support/rules.js';

export default defineFunction({
  name: 'unique',
  category: 'Enumerate',
  description: 'Removes repeated items from an array, keeping the first of each.',
  parameters: [{ name: 'value', kinds: K.Array, required: true }],
  returns: (call) => arrayOf(elementsOf(only(argKind(call, 'value'), K.Array))),
  examples: [{ title: 'Unique', source: 'unique(["foo", "bar", "foo", "baz"])', returns: '["foo", "bar", "baz"]' }],
});
