import { defineFunction } from './define.js';
import { K, INTEGER } from '../types/kind.js';

export default defineFunction({
  name: 'ip_aton',
  category: 'IP',
  description: 'Converts an IPv4 address in dotted notation into the integer it stands for.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: INTEGER,
  examples: [{ title: 'IPv4 to integer', source: 'ip_aton!("1.2.3.4")', returns: '16909060' }],
});
