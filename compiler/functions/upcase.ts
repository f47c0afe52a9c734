import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'upcase',
  category: 'String',
  description: 'Converts a string to uppercase following Unicode rules.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: BYTES,
  examples: [{ title: 'Upcase a string', source: 'upcase("Hello, World!")', returns: '"HELLO, WORLD!"' }],
});
