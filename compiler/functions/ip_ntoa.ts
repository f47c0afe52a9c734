import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'ip_ntoa',
  category: 'IP',
  description: 'Converts an integer that fits in 32 bits into an IPv4 address in dotted notation.',
  parameters: [{ name: 'value', kinds: K.Integer, required: true }],
  fallible: true,
  returns: BYTES,
  examples: [{ title: 'Integer to IPv4', source: 'ip_ntoa!(16909060)', returns: '"1.2.3.4"' }],
});
