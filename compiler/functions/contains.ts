import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'contains',
  category: 'String',
  description: 'Tells whether a string contains a substring, optionally ignoring case.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'substring', kinds: K.Bytes, required: true },
    { name: 'case_sensitive', kinds: K.Boolean, required: false, default: 'true' },
  ],
  returns: BOOLEAN,
  examples: [
    {
      title: 'String contains with default parameters (case sensitive)',
      source: 'contains("banana", "AnA")',
      returns: 'false',
    },
    {
      title: 'String contains (case insensitive)',
      source: 'contains("banana", "AnA", case_sensitive: false)',
      returns: 'true',
    },
  ],
});
