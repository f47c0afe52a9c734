import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'ip_cidr_contains',
  category: 'IP',
  description: 'Tells whether an IPv4 or IPv6 address lies in a CIDR block, or in any of an array of them.',
  parameters: [
    { name: 'cidr', kinds: K.Bytes | K.Array, required: true },
    { name: 'value', kinds: K.Bytes, required: true },
  ],
  fallible: true,
  returns: BOOLEAN,
  examples: [
    { title: 'IPv4 contains CIDR', source: 'ip_cidr_contains!("192.168.0.0/16", "192.168.10.32")', returns: 'true' },
    {
      title: 'IPv4 is private',
      source: 'ip_cidr_contains!(["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"], "192.168.10.32")',
      returns: 'true',
    },
    {
      title: 'IPv6 contains CIDR',
      source: 'ip_cidr_contains!("2001:4f8:4:ba::/64", "2001:4f8:4:ba:2e0:81ff:fe22:d1f1")',
      returns: 'true',
    },
    { title: 'Not in range', source: 'ip_cidr_contains!("192.168.0.0/24", "192.168.10.32")', returns: 'false' },
    {
      title: 'Invalid address',
      source: 'ip_cidr_contains!("192.168.0.0/24", "INVALID")',
      raises:
        'function call error for "ip_cidr_contains" at (0:46): unable to parse IP address: invalid IP address syntax',
    },
  ],
});
