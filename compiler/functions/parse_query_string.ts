import { defineFunction } from './define.js';
import { K, BYTES, objectOf, arrayOf, union } from '../types/kind.js';

export default defineFunction({
  name: 'parse_query_string',
  category: 'Parse',
  description:
    'Parses a URL query string (a leading `?` is allowed) into an object; a repeated key collects an array and a key without a value gets an empty string.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: objectOf(union(BYTES, arrayOf(BYTES))),
  backing: { kind: 'js', library: 'URLSearchParams' },
  examples: [
    {
      title: 'Parse simple query string',
      source: 'parse_query_string("foo=1&bar=2")',
      returns: '{ "foo": "1", "bar": "2" }',
    },
    {
      title: 'Parse query string',
      source: 'parse_query_string("foo=%2B1&bar=2&bar=3&xyz")',
      returns: '{ "bar": ["2", "3"], "foo": "+1", "xyz": "" }',
    },
    {
      title: "Parse Ruby on Rails' query string",
      source: 'parse_query_string("?foo%5b%5d=1&foo%5b%5d=2")',
      returns: '{ "foo[]": ["1", "2"] }',
    },
  ],
});
