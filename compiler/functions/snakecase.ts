import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'snakecase',
  category: 'String',
  description:
    'Rewrites a string in snake_case. The words are found from `original_case` when given, otherwise guessed; `excluded_boundaries` lists word boundaries not to split on.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    {
      name: 'original_case',
      kinds: K.Bytes,
      required: false,
      enum: ['PascalCase', 'SCREAMING_SNAKE', 'camelCase', 'kebab-case', 'snake_case'],
    },
    {
      name: 'excluded_boundaries',
      kinds: K.Array,
      required: false,
      enum: ['acronym', 'digit_lower', 'digit_upper', 'lower_digit', 'lower_upper', 'upper_digit', 'upper_lower'],
      literal: true,
    },
  ],
  returns: BYTES,
  examples: [
    { title: 'snake_case a string', source: 'snakecase("input-string")', returns: '"input_string"' },
    {
      title: 'snake_case a string with original case',
      source: 'snakecase("input-string", original_case: "kebab-case")',
      returns: '"input_string"',
    },
    {
      title: 'snake_case with excluded boundaries',
      source: 'snakecase("s3BucketDetails", excluded_boundaries: ["lower_digit"])',
      returns: '"s3_bucket_details"',
    },
  ],
});
