import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { sameCollection } from './support/rules.js';

export default defineFunction({
  name: 'compact',
  category: 'Enumerate',
  description:
    'Removes empty values from an array or object: by default null, empty strings, empty arrays and empty objects, recursively; `nullish` also removes "-" and whitespace-only strings.',
  parameters: [
    { name: 'value', kinds: K.Object | K.Array, required: true },
    { name: 'recursive', kinds: K.Boolean, required: false, default: 'true' },
    { name: 'null', kinds: K.Boolean, required: false, default: 'true' },
    { name: 'string', kinds: K.Boolean, required: false, default: 'true' },
    { name: 'object', kinds: K.Boolean, required: false, default: 'true' },
    { name: 'array', kinds: K.Boolean, required: false, default: 'true' },
    { name: 'nullish', kinds: K.Boolean, required: false, default: 'false' },
  ],
  returns: sameCollection,
  examples: [
    {
      title: 'Compact an object with default parameters',
      source: 'compact({"field1": 1, "field2": "", "field3": [], "field4": null})',
      returns: '{ "field1": 1 }',
    },
    {
      title: 'Compact an array with default parameters',
      source: 'compact(["foo", "bar", "", null, [], "buzz"])',
      returns: '["foo", "bar", "buzz"]',
    },
    {
      title: 'Compact an array using nullish',
      source: 'compact(["-", "   ", "\\n", null, true], nullish: true)',
      returns: '[true]',
    },
    {
      title: 'Compact a complex object with default parameters',
      source: 'compact({ "a": {}, "b": null, "c": [null], "d": "", "e": "-", "f": true })',
      returns: '{ "e": "-", "f": true }',
    },
    {
      title: 'Compact a complex object using null: false',
      source: 'compact({ "a": {}, "b": null, "c": [null], "d": "", "e": "-", "f": true }, null: false)',
      returns: '{ "b": null, "c": [null], "e": "-", "f": true }',
    },
  ],
});
