import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'downcase',
  category: 'String',
  description: 'Lower-cases a string, following Unicode case rules.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: BYTES,
  examples: [
    { title: 'Downcase a string', source: 'downcase("Hello, World!")', returns: '"hello, world!"' },
    { title: 'Downcase with number', source: 'downcase("FOO 2 BAR")', returns: '"foo 2 bar"' },
  ],
});
