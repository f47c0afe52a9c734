import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'is_ipv6',
  category: 'IP',
  description: 'Tells whether a string is a valid IPv6 address.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: BOOLEAN,
  examples: [
    { title: 'Valid IPv6 address', source: 'is_ipv6("2001:0db8:85a3:0000:0000:8a2e:0370:7334")', returns: 'true' },
    { title: 'Valid IPv4 address', source: 'is_ipv6("10.0.102.37")', returns: 'false' },
    { title: 'Arbitrary string', source: 'is_ipv6("foobar")', returns: 'false' },
  ],
});
