import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'ends_with',
  category: 'String',
  description: 'Tells whether a string ends with a substring, optionally ignoring case.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'substring', kinds: K.Bytes, required: true },
    { name: 'case_sensitive', kinds: K.Boolean, required: false, default: 'true' },
  ],
  returns: BOOLEAN,
  examples: [
    {
      title: 'String ends with (case sensitive)',
      source: 'ends_with("The Needle In The Haystack", "The Haystack")',
      returns: 'true',
    },
    {
      title: 'String ends with (case insensitive)',
      source: 'ends_with("The Needle In The Haystack", "the haystack", case_sensitive: false)',
      returns: 'true',
    },
    { title: 'String ends with (case sensitive failure)', source: 'ends_with("foobar", "R")', returns: 'false' },
  ],
});
