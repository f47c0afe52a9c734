import { defineFunction } from './define.js';
import { K, ANY } from '../types/kind.js';

export default defineFunction({
  name: 'get',
  category: 'Path',
  description:
    'Reads the value at a path given as an array of field names and indexes (negative ones count from the end) inside an object or array; null when nothing is there.',
  parameters: [
    { name: 'value', kinds: K.Object | K.Array, required: true },
    { name: 'path', kinds: K.Array, required: true },
  ],
  fallible: true,
  returns: ANY,
  examples: [
    { title: 'Single-segment top-level field', source: 'get!(value: {"foo": "bar"}, path: ["foo"])', returns: '"bar"' },
    { title: 'Returns null for unknown field', source: 'get!(value: {"foo": "bar"}, path: ["baz"])', returns: 'null' },
    {
      title: 'Multi-segment nested field',
      source: 'get!(value: {"foo": { "bar": true }}, path: ["foo", "bar"])',
      returns: 'true',
    },
    { title: 'Array indexing', source: 'get!(value: [92, 42], path: [0])', returns: '92' },
    { title: 'Array indexing (negative)', source: 'get!(value: ["foo", "bar", "baz"], path: [-2])', returns: '"bar"' },
    {
      title: 'Nested indexing',
      source: 'get!(value: {"foo": { "bar": [92, 42] }}, path: ["foo", "bar", 1])',
      returns: '42',
    },
    { title: 'External target', source: 'get!(value: ., path: ["foo"])', input: { foo: true }, returns: 'true' },
    {
      title: 'Variable',
      source: `var = { "foo": true }
get!(value: var, path: ["foo"])
`,
      returns: 'true',
    },
    {
      title: 'Missing index',
      source: 'get!(value: {"foo": { "bar": [92, 42] }}, path: ["foo", "bar", 1, -1])',
      returns: 'null',
    },
    { title: 'Invalid indexing', source: 'get!(value: [42], path: ["foo"])', returns: 'null' },
    {
      title: 'Invalid segment type',
      source: 'get!(value: {"foo": { "bar": [92, 42] }}, path: ["foo", true])',
      raises: 'function call error for "get" at (0:62): path segment must be either string or integer, not boolean',
    },
  ],
});
