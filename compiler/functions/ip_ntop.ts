import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'ip_ntop',
  category: 'IP',
  description: 'Converts a binary IP address (4 bytes for IPv4, 16 for IPv6) into its text form.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: BYTES,
  examples: [
    {
      title: 'Convert IPv4 address from bytes after decoding from Base64',
      source: 'ip_ntop!(decode_base64!("wKgAAQ=="))',
      returns: '"192.168.0.1"',
    },
    {
      title: 'Convert IPv6 address from bytes after decoding from Base64',
      source: 'ip_ntop!(decode_base64!("IAENuIWjAAAAAIouA3BzNA=="))',
      returns: '"2001:db8:85a3::8a2e:370:7334"',
    },
  ],
});
