import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'ipv6_to_ipv4',
  category: 'IP',
  description:
    'Converts an IPv4-compatible IPv6 address into IPv4; an IPv4 address comes back unchanged, and other IPv6 addresses are an error.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  examples: [{ title: 'IPv6 to IPv4', source: 'ipv6_to_ipv4!("::ffff:192.168.0.1")', returns: '"192.168.0.1"' }],
});
