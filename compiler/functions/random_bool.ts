import { defineFunction } from './define.js';
import { BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'random_bool',
  category: 'Random',
  description: 'Returns `true` or `false` at random.',
  parameters: [],
  returns: BOOLEAN,
  pure: false,
  examples: [{ title: 'Random boolean', source: 'is_boolean(random_bool())', returns: 'true' }],
});
