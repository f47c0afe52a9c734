import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encrypt_ip',
  category: 'IP',
  description:
    'Encrypts an IP address with IPCrypt, keeping it a valid address: `aes128` (deterministic, 16-byte key) or `pfx` (prefix-preserving, 32-byte key).',
  parameters: [
    { name: 'ip', kinds: K.Bytes, required: true },
    { name: 'key', kinds: K.Bytes, required: true },
    { name: 'mode', kinds: K.Bytes, required: true },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'node:crypto' },
  examples: [
    {
      title: 'Encrypt IPv4 address with AES128',
      source: 'encrypt_ip!("192.168.1.1", "sixteen byte key", "aes128")',
      returns: '"72b9:a747:f2e9:72af:76ca:5866:6dcf:c3b0"',
    },
    {
      title: 'Encrypt IPv6 address with AES128',
      source: 'encrypt_ip!("2001:db8::1", "sixteen byte key", "aes128")',
      returns: '"c0e6:eb35:6887:f554:4c65:8ace:17ca:6c6a"',
    },
    {
      title: 'Encrypt IPv4 address with prefix-preserving mode',
      source: 'encrypt_ip!("192.168.1.1", "thirty-two bytes key for pfx use", "pfx")',
      returns: '"33.245.248.61"',
    },
    {
      title: 'Encrypt IPv6 address with prefix-preserving mode',
      source: 'encrypt_ip!("2001:db8::1", "thirty-two bytes key for ipv6pfx", "pfx")',
      returns: '"88bd:d2bf:8865:8c4d:84b:44f6:6077:72c9"',
    },
  ],
});
