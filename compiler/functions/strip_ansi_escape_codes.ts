import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'strip_ansi_escape_codes',
  category: 'String',
  description: 'Removes ANSI terminal escape sequences (colours, cursor movements) from a string.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: BYTES,
  examples: [
    { title: 'Strip colours', source: 'strip_ansi_escape_codes("\\u{1b}[46mfoo\\u{1b}[0m bar")', returns: '"foo bar"' },
    {
      title: 'Strip a title and a cursor move',
      source: 'strip_ansi_escape_codes("\\u{1b}]0;title\\u{7}a\\u{1b}[2Kb\\n")',
      returns: '"ab\\n"',
    },
  ],
});
