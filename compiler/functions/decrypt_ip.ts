import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decrypt_ip',
  category: 'IP',
  description: 'Recovers an IP address encrypted by `encrypt_ip`, with the same key and mode (`aes128` or `pfx`).',
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
      title: 'Decrypt IPv4 address with AES128',
      source: 'decrypt_ip!("72b9:a747:f2e9:72af:76ca:5866:6dcf:c3b0", "sixteen byte key", "aes128")',
      returns: '"192.168.1.1"',
    },
    {
      title: 'Decrypt IPv6 address with AES128',
      source: 'decrypt_ip!("c0e6:eb35:6887:f554:4c65:8ace:17ca:6c6a", "sixteen byte key", "aes128")',
      returns: '"2001:db8::1"',
    },
    {
      title: 'Decrypt IPv4 address with prefix-preserving mode',
      source: 'decrypt_ip!("33.245.248.61", "thirty-two bytes key for pfx use", "pfx")',
      returns: '"192.168.1.1"',
    },
    {
      title: 'Decrypt IPv6 address with prefix-preserving mode',
      source: 'decrypt_ip!("88bd:d2bf:8865:8c4d:84b:44f6:6077:72c9", "thirty-two bytes key for ipv6pfx", "pfx")',
      returns: '"2001:db8::1"',
    },
    {
      title: 'Round-trip encryption and decryption',
      source: `original_ip = "192.168.1.100"
key = "sixteen byte key"
mode = "aes128"

encrypted = encrypt_ip!(original_ip, key, mode)
decrypt_ip!(encrypted, key, mode)
`,
      returns: '"192.168.1.100"',
    },
  ],
});
