import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'format_int',
  category: 'Number',
  description: 'Writes an integer in a base from 2 to 36 (10 by default); negative numbers keep their sign.',
  parameters: [
    { name: 'value', kinds: K.Integer, required: true },
    { name: 'base', kinds: K.Integer, required: false, default: '10' },
  ],
  fallible: true,
  returns: BYTES,
  examples: [
    { title: 'Format as a hexadecimal integer', source: 'format_int!(42, 16)', returns: '"2a"' },
    { title: 'Format as a negative hexadecimal integer', source: 'format_int!(-42, 16)', returns: '"-2a"' },
    { title: 'Format as a decimal integer (default base)', source: 'format_int!(42)', returns: '"42"' },
  ],
});
