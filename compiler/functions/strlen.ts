import { defineFunction } from './define.js';
import { K, INTEGER } from '../types/kind.js';

export default defineFunction({
  name: 'strlen',
  category: 'Enumerate',
  description: 'Counts the Unicode code points of a string.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  returns: INTEGER,
  examples: [{ title: 'Count Unicode scalar values', source: 'strlen("ñandú")', returns: '5' }],
});
