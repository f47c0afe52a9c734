import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'format_number',
  category: 'Number',
  description:
    'Writes a number with `scale` decimal places, the given decimal separator and, when given, a separator between groups of thousands.',
  parameters: [
    { name: 'value', kinds: K.Integer | K.Float, required: true },
    { name: 'scale', kinds: K.Integer, required: false },
    { name: 'decimal_separator', kinds: K.Bytes, required: false, default: '.' },
    { name: 'grouping_separator', kinds: K.Bytes, required: false },
  ],
  returns: BYTES,
  examples: [
    {
      title: 'Format a number (3 decimals)',
      source: 'format_number(1234567.89, 3, decimal_separator: ".", grouping_separator: ",")',
      returns: '"1,234,567.890"',
    },
    {
      title: 'Format a number with European-style separators',
      source: 'format_number(4672.4, decimal_separator: ",", grouping_separator: "_")',
      returns: '"4_672,4"',
    },
    {
      title: 'Format a number with a middle dot separator',
      source: 'format_number(4321.09, 3, decimal_separator: "·")',
      returns: '"4321·090"',
    },
  ],
});
