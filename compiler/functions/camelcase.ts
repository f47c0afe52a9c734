import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'camelcase',
  category: 'String',
  description:
    'Converts a string to camelCase. Words are split according to `original_case` when it is given, and by detecting the current case otherwise.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    {
      name: 'original_case',
      kinds: K.Bytes,
      required: false,
      enum: ['PascalCase', 'SCREAMING_SNAKE', 'camelCase', 'kebab-case', 'snake_case'],
    },
  ],
  returns: BYTES,
  examples: [
    {
      title: 'camelCase a string without specifying original case',
      source: 'camelcase("input-string")',
      returns: '"inputString"',
    },
    {
      title: 'camelcase a snake_case string',
      source: 'camelcase("foo_bar_baz", "snake_case")',
      returns: '"fooBarBaz"',
    },
    {
      title: 'camelcase specifying the wrong original case (noop)',
      source: 'camelcase("foo_bar_baz", "kebab-case")',
      returns: '"foo_bar_baz"',
    },
  ],
});
