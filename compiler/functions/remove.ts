import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { sameCollection } from './support/rules.js';

export default defineFunction({
  name: 'remove',
  category: 'Path',
  description:
    'Returns a copy of an object or array without the value at `path` (an array of field names and indexes); `compact` also drops the containers this leaves empty.',
  parameters: [
    { name: 'value', kinds: K.Object | K.Array, required: true },
    { name: 'path', kinds: K.Array, required: true },
    { name: 'compact', kinds: K.Boolean, required: false, default: 'false' },
  ],
  fallible: true,
  returns: sameCollection,
  examples: [
    {
      title: 'Single-segment top-level field',
      source: 'remove!(value: { "foo": "bar" }, path: ["foo"])',
      returns: '{}',
    },
    {
      title: 'Remove unknown field',
      source: 'remove!(value: {"foo": "bar"}, path: ["baz"])',
      returns: '{ "foo": "bar" }',
    },
    {
      title: 'Multi-segment nested field',
      source: 'remove!(value: { "foo": { "bar": "baz" } }, path: ["foo", "bar"])',
      returns: '{ "foo": {} }',
    },
    { title: 'Array indexing', source: 'remove!(value: ["foo", "bar", "baz"], path: [-2])', returns: '["foo", "baz"]' },
    {
      title: 'Compaction',
      source: 'remove!(value: { "foo": { "bar": [42], "baz": true } }, path: ["foo", "bar", 0], compact: true)',
      returns: '{ "foo": { "baz": true } }',
    },
    {
      title: 'Compact object',
      source: 'remove!(value: {"foo": { "bar": true }}, path: ["foo", "bar"], compact: true)',
      returns: '{}',
    },
    {
      title: 'Compact array',
      source: 'remove!(value: {"foo": [42], "bar": true }, path: ["foo", 0], compact: true)',
      returns: '{ "bar": true }',
    },
    { title: 'External target', source: 'remove!(value: ., path: ["foo"])', input: { foo: true }, returns: '{}' },
    {
      title: 'Variable',
      source: `var = { "foo": true }
remove!(value: var, path: ["foo"])
`,
      returns: '{}',
    },
    {
      title: 'Missing index',
      source: 'remove!(value: {"foo": { "bar": [92, 42] }}, path: ["foo", "bar", 1, -1])',
      returns: '{ "foo": { "bar": [92, 42] } }',
    },
    { title: 'Invalid indexing', source: 'remove!(value: [42], path: ["foo"])', returns: '[42]' },
    {
      title: 'Invalid segment type',
      source: 'remove!(value: {"foo": { "bar": [92, 42] }}, path: ["foo", true])',
      raises: 'function call error for "remove" at (0:65): path segment must be either string or integer, not boolean',
    },
  ],
});
