import { defineFunction } from './define.js';
import { K, ANY_BITS } from '../types/kind.js';
import { sameCollection } from './support/rules.js';

export default defineFunction({
  name: 'set',
  category: 'Path',
  description:
    'Returns a copy of an object or array with `data` stored at `path` (an array of field names and indexes), creating the containers on the way.',
  parameters: [
    { name: 'value', kinds: K.Object | K.Array, required: true },
    { name: 'path', kinds: K.Array, required: true },
    { name: 'data', kinds: ANY_BITS, required: true },
  ],
  fallible: true,
  returns: sameCollection,
  examples: [
    {
      title: 'Single-segment top-level field',
      source: 'set!(value: { "foo": "bar" }, path: ["foo"], data: "baz")',
      returns: '{ "foo": "baz" }',
    },
    {
      title: 'Multi-segment nested field',
      source: 'set!(value: { "foo": { "bar": "baz" } }, path: ["foo", "bar"], data: "qux")',
      returns: '{ "foo": { "bar": "qux" } }',
    },
    {
      title: 'Array',
      source: 'set!(value: ["foo", "bar", "baz"], path: [-2], data: 42)',
      returns: '["foo", 42, "baz"]',
    },
    {
      title: 'Nested fields',
      source: 'set!(value: {}, path: ["foo", "bar"], data: "baz")',
      returns: '{ "foo": { "bar": "baz" } }',
    },
    {
      title: 'Nested indexing',
      source: 'set!(value: {"foo": { "bar": [] }}, path: ["foo", "bar", 1], data: "baz")',
      returns: '{ "foo": { "bar": [null, "baz"] } }',
    },
    {
      title: 'External target',
      source: 'set!(value: ., path: ["bar"], data: "baz")',
      input: { foo: true },
      returns: '{ "foo": true, "bar": "baz" }',
    },
    {
      title: 'Variable',
      source: `var = { "foo": true }
set!(value: var, path: ["bar"], data: "baz")
`,
      returns: '{ "foo": true, "bar": "baz" }',
    },
    { title: 'Invalid indexing', source: 'set!(value: [], path: ["foo"], data: "baz")', returns: '{ "foo": "baz" }' },
    {
      title: 'Invalid segment type',
      source: 'set!({"foo": { "bar": [92, 42] }}, ["foo", true], "baz")',
      raises: 'function call error for "set" at (0:56): path segment must be either string or integer, not boolean',
    },
  ],
});
