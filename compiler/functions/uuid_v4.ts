import { defineFunction } from './define.js';
import { BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'uuid_v4',
  category: 'Random',
  description: 'Generates a random version 4 UUID.',
  parameters: [],
  returns: BYTES,
  pure: false,
  examples: [
    { title: 'Create a UUIDv4', source: 'uuid_v4()', mode: 'type', returns: '"1d262f4f-199b-458d-879f-05fd0a5f0683"' },
  ],
});
