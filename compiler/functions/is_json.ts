import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_json',
  category: 'Type',
  description:
    'Tells whether a string is a valid JSON document, optionally of a given variant (object, array, string, number, bool or null).',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'variant', kinds: K.Bytes, required: false, enum: ['array', 'bool', 'null', 'number', 'object', 'string'] },
  ],
  returns: BOOLEAN,
  examples: [
    { title: 'Valid JSON object', source: 'is_json("{}")', returns: 'true' },
    { title: 'Non-valid value', source: 'is_json("{")', returns: 'false' },
    { title: 'Exact variant', source: 'is_json("{}", variant: "object")', returns: 'true' },
    { title: 'Non-valid exact variant', source: 'is_json("{}", variant: "array")', returns: 'false' },
    { title: 'Valid JSON string', source: 'is_json(s\'"test"\')', returns: 'true' },
  ],
});
