import { defineFunction } from './define.js';
import { BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'get_hostname',
  category: 'System',
  description: 'Returns the name of the machine running the program.',
  parameters: [],
  fallible: true,
  returns: BYTES,
  pure: false,
  backing: { kind: 'js', library: 'node:os' },
  examples: [{ title: 'Get hostname', source: 'get_hostname!()', mode: 'type', returns: '"my-hostname"' }],
});
