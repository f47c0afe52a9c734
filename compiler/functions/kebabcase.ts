import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'kebabcase',
  category: 'String',
  description:
    'Converts a string to kebab-case. Words are split according to `original_case` when it is given, and by detecting the current case otherwise.',
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
      title: 'kebab-case a string without specifying original case',
      source: 'kebabcase("InputString")',
      returns: '"input-string"',
    },
    {
      title: 'kebab-case a snake_case string',
      source: 'kebabcase("foo_bar_baz", "snake_case")',
      returns: '"foo-bar-baz"',
    },
    {
      title: 'kebab-case specifying the wrong original case (noop)',
      source: 'kebabcase("foo_bar_baz", "PascalCase")',
      returns: '"foo_bar_baz"',
    },
  ],
});
