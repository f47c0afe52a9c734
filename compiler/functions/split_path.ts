import { defineFunction } from './define.js';
import { K, BYTES, arrayOf } from '../types/kind.js';

export default defineFunction({
  name: 'split_path',
  category: 'String',
  description: 'Splits a file path into its components, the root being `/`.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: arrayOf(BYTES),
  examples: [
    { title: 'Split path with trailing slash', source: 'split_path("/home/user/")', returns: '["/", "home", "user"]' },
    { title: 'Split path from file path', source: 'split_path("/home/user")', returns: '["/", "home", "user"]' },
    { title: 'Split path from root', source: 'split_path("/")', returns: '["/"]' },
    { title: 'Empty path returns empty array', source: 'split_path("")', returns: '[]' },
  ],
});
