import { defineFunction } from './define.js';
import { K, INTEGER } from '../types/kind.js';

export default defineFunction({
  name: 'parse_int',
  category: 'Parse',
  description:
    'Reads an integer from a string. Without `base` a `0b`, `0o` or `0x` prefix selects binary, octal or hexadecimal; otherwise `base` (2 to 36) is used.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'base', kinds: K.Integer, required: false },
  ],
  fallible: true,
  returns: INTEGER,
  examples: [
    { title: 'Parse decimal', source: 'parse_int!("-42")', returns: '-42' },
    { title: 'Parse binary', source: 'parse_int!("0b1001")', returns: '9' },
    { title: 'Parse octal', source: 'parse_int!("0o42")', returns: '34' },
    { title: 'Parse hexadecimal', source: 'parse_int!("0x2a")', returns: '42' },
    { title: 'Parse explicit base', source: 'parse_int!("2a", 17)', returns: '44' },
  ],
});
