import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'md5',
  category: 'Cryptography',
  description: 'Returns the MD5 digest of a string as lower-case hexadecimal.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  backing: { kind: 'js', library: 'node:crypto' },
  returns: BYTES,
  examples: [{ title: 'Create md5 hash', source: 'md5("foo")', returns: '"acbd18db4cc2f85cedef654fccc4a4d8"' }],
});
