import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'ip_subnet',
  category: 'IP',
  description:
    'Returns the network address of an IP address for a netmask or a `/prefix` length of the same IP version.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'subnet', kinds: K.Bytes, required: true },
  ],
  fallible: true,
  returns: BYTES,
  examples: [
    { title: 'IPv4 subnet', source: 'ip_subnet!("192.168.10.32", "255.255.255.0")', returns: '"192.168.10.0"' },
    { title: 'IPv6 subnet', source: 'ip_subnet!("2404:6800:4003:c02::64", "/32")', returns: '"2404:6800::"' },
    { title: 'Subnet /1', source: 'ip_subnet!("192.168.0.1", "/1")', returns: '"128.0.0.0"' },
  ],
});
