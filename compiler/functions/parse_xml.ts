import { defineFunction } from './define.js';
import { K, ANY, BYTES, objectOf, union } from '../types/kind.js';

export default defineFunction({
  name: 'parse_xml',
  category: 'Parse',
  description:
    'Parses an XML document into an object. Attributes become fields prefixed by `attr_prefix`, element text goes under `text_key` when it needs a key, and numbers, booleans and nulls in text are converted unless disabled.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'trim', kinds: K.Boolean, required: false, default: 'true' },
    { name: 'include_attr', kinds: K.Boolean, required: false, default: 'true' },
    { name: 'attr_prefix', kinds: K.Bytes, required: false, default: '@' },
    { name: 'text_key', kinds: K.Bytes, required: false, default: 'text' },
    { name: 'always_use_text_key', kinds: K.Boolean, required: false, default: 'false' },
    { name: 'parse_bool', kinds: K.Boolean, required: false, default: 'true' },
    { name: 'parse_null', kinds: K.Boolean, required: false, default: 'true' },
    { name: 'parse_number', kinds: K.Boolean, required: false, default: 'true' },
  ],
  fallible: true,
  returns: union(BYTES, objectOf(ANY)),
  backing: { kind: 'js', library: 'fast-xml-parser' },
  examples: [
    {
      title: 'Parse XML',
      source: `value = s'<book category="CHILDREN"><title lang="en">Harry Potter</title><author>J K. Rowling</author><year>2005</year></book>';

parse_xml!(value, text_key: "value", parse_number: false)
`,
      returns:
        '{ "book": { "@category": "CHILDREN", "author": "J K. Rowling", "title": { "@lang": "en", "value": "Harry Potter" }, "year": "2005" } }',
    },
  ],
});
