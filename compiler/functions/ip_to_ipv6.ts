import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'ip_to_ipv6',
  category: 'IP',
  description: 'Converts an IPv4 address into its IPv4-mapped IPv6 form; an IPv6 address comes back unchanged.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  examples: [{ title: 'IPv4 to IPv6', source: 'ip_to_ipv6!("192.168.10.32")', returns: '"::ffff:192.168.10.32"' }],
});
