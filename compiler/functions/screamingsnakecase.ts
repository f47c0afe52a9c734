import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'screamingsnakecase',
  category: 'String',
  description:
    'Rewrites a string in SCREAMING_SNAKE_CASE. The words are found from `original_case` when given, otherwise guessed.',
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
      title: 'SCREAMING_SNAKE_CASE a string without specifying original case',
      source: 'screamingsnakecase("input-string")',
      returns: '"INPUT_STRING"',
    },
    {
      title: 'SCREAMING_SNAKE_CASE a snake_case string',
      source: 'screamingsnakecase("foo_bar_baz", "snake_case")',
      returns: '"FOO_BAR_BAZ"',
    },
    {
      title: "SCREAMING_SNAKE_CASE specifying the wrong original case (capitalizes but doesn't include `_` properly)",
      source: 'screamingsnakecase("FooBarBaz", "kebab-case")',
      returns: '"FOOBARBAZ"',
    },
  ],
});
