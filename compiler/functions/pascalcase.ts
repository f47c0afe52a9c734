import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'pascalcase',
  category: 'String',
  description:
    'Rewrites a string in PascalCase. The words are found from `original_case` when given, otherwise guessed.',
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
      title: 'PascalCase a string without specifying original case',
      source: 'pascalcase("input-string")',
      returns: '"InputString"',
    },
    {
      title: 'PascalCase a snake_case string',
      source: 'pascalcase("foo_bar_baz", "snake_case")',
      returns: '"FooBarBaz"',
    },
    {
      title: 'PascalCase specifying the wrong original case (only capitalizes)',
      source: 'pascalcase("foo_bar_baz", "kebab-case")',
      returns: '"Foo_bar_baz"',
    },
  ],
});
