import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'encrypt',
  category: 'Cryptography',
  description:
    'Encrypts `plaintext` with the named cipher, a key and an initialization vector of the sizes the cipher requires.',
  parameters: [
    { name: 'plaintext', kinds: K.Bytes, required: true },
    { name: 'algorithm', kinds: K.Bytes, required: true },
    { name: 'key', kinds: K.Bytes, required: true },
    { name: 'iv', kinds: K.Bytes, required: true },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'node:crypto, @noble/ciphers' },
  examples: [
    {
      title: 'Encrypt value using AES-256-CFB',
      source: `iv = "0123456789012345" # typically you would call random_bytes(16)
key = "01234567890123456789012345678912"
encrypted_message = encrypt!("data", "AES-256-CFB", key: key, iv: iv)
encode_base64(encrypted_message)
`,
      returns: '"c/dIOA=="',
    },
    {
      title: 'Encrypt value using AES-128-CBC-PKCS7',
      source: `iv = "1234567890123456" # typically you would call random_bytes(16)
key = "16_byte_keyxxxxx"
encrypted_message = encrypt!("super secret message", "AES-128-CBC-PKCS7", key: key, iv: iv)
encode_base64(encrypted_message)
`,
      returns: '"GBw8Mu00v0Kc38+/PvsVtGgWuUJ+ZNLgF8Opy8ohIYE="',
    },
  ],
});
