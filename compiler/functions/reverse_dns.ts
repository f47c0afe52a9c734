import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'reverse_dns',
  category: 'System',
  description: 'Looks up the host name of an IP address with a reverse DNS query.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  pure: false,
  backing: { kind: 'js', library: 'node:dns' },
  examples: [{ title: 'Example', source: 'reverse_dns!("127.0.0.1")', returns: '"localhost"' }],
});
