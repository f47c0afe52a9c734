import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'truncate',
  category: 'String',
  description: 'Shortens a string to at most `limit` characters, appending `suffix` when something was cut.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'limit', kinds: K.Integer, required: true },
    { name: 'suffix', kinds: K.Bytes, required: false },
  ],
  returns: BYTES,
  examples: [
    {
      title: 'Truncate a string',
      source: 'truncate("A rather long sentence.", limit: 11, suffix: "...")',
      returns: '"A rather lo..."',
    },
    {
      title: 'Truncate a string (custom suffix)',
      source: 'truncate("A rather long sentence.", limit: 11, suffix: "[TRUNCATED]")',
      returns: '"A rather lo[TRUNCATED]"',
    },
    { title: 'Truncate', source: 'truncate("foobar", 3)', returns: '"foo"' },
  ],
});
