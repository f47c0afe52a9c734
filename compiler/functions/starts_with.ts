import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'starts_with',
  category: 'String',
  description: 'Tells whether a string begins with a substring, optionally ignoring case.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'substring', kinds: K.Bytes, required: true },
    { name: 'case_sensitive', kinds: K.Boolean, required: false, default: 'true' },
  ],
  returns: BOOLEAN,
  examples: [
    {
      title: 'String starts with (case sensitive)',
      source: 'starts_with("The Needle In The Haystack", "The Needle")',
      returns: 'true',
    },
    {
      title: 'String starts with (case insensitive)',
      source: 'starts_with("The Needle In The Haystack", "the needle", case_sensitive: false)',
      returns: 'true',
    },
    { title: 'String starts with (case sensitive failure)', source: 'starts_with("foobar", "F")', returns: 'false' },
  ],
});
