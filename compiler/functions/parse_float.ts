import { defineFunction } from './define.js';
import { K, FLOAT } from '../types/kind.js';

export default defineFunction({
  name: 'parse_float',
  category: 'String',
  description: 'Reads a base-10 floating point number, with optional sign and exponent, from a string.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: FLOAT,
  examples: [
    { title: 'Parse negative integer', source: 'parse_float!("-42")', returns: '-42.0' },
    { title: 'Parse float', source: 'parse_float!("42.38")', returns: '42.38' },
    { title: 'Scientific notation', source: 'parse_float!("2.5e3")', returns: '2500.0' },
  ],
});
