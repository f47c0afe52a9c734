import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'ip_pton',
  category: 'IP',
  description: 'Converts an IPv4 or IPv6 address in text form into its binary form of 4 or 16 bytes.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  examples: [
    {
      title: 'Convert IPv4 address to bytes and encode to Base64',
      source: 'encode_base64(ip_pton!("192.168.0.1"))',
      returns: '"wKgAAQ=="',
    },
    {
      title: 'Convert IPv6 address to bytes and encode to Base64',
      source: 'encode_base64(ip_pton!("2001:db8:85a3::8a2e:370:7334"))',
      returns: '"IAENuIWjAAAAAIouA3BzNA=="',
    },
  ],
});
