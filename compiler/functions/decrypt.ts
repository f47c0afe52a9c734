import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'decrypt',
  category: 'Cryptography',
  description:
    'Decrypts `ciphertext` with the named cipher (AES in CFB, OFB, CTR or CBC mode with a padding, or an authenticated ChaCha/Salsa/SIV cipher), a key and an initialization vector of the sizes it requires.',
  parameters: [
    { name: 'ciphertext', kinds: K.Bytes, required: true },
    { name: 'algorithm', kinds: K.Bytes, required: true },
    { name: 'key', kinds: K.Bytes, required: true },
    { name: 'iv', kinds: K.Bytes, required: true },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'node:crypto, @noble/ciphers' },
  examples: [
    {
      title: 'Decrypt value using AES-256-CFB',
      source: `iv = "0123456789012345"
key = "01234567890123456789012345678912"
ciphertext = decode_base64!("c/dIOA==")
decrypt!(ciphertext, "AES-256-CFB", key: key, iv: iv)
`,
      returns: '"data"',
    },
    {
      title: 'Decrypt value using AES-128-CBC-PKCS7',
      source: `iv = decode_base64!("fVEIRkIiczCRWNxaarsyxA==")
key = "16_byte_keyxxxxx"
ciphertext = decode_base64!("5fLGcu1VHdzsPcGNDio7asLqE1P43QrVfPfmP4i4zOU=")
decrypt!(ciphertext, "AES-128-CBC-PKCS7", key: key, iv: iv)
`,
      returns: '"super_secret_message"',
    },
  ],
});
