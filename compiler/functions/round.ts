import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { numericResult } from './support/rules.js';

export default defineFunction({
  name: 'round',
  category: 'Number',
  description:
    'Rounds a number to the nearest integer, or to `precision` decimal places; halves round away from zero. An integer stays an integer.',
  parameters: [
    { name: 'value', kinds: K.Integer | K.Float, required: true },
    { name: 'precision', kinds: K.Integer, required: false, default: '0' },
  ],
  returns: numericResult,
  examples: [
    { title: 'Round a number (without precision)', source: 'round(4.345)', returns: '4.0' },
    { title: 'Round a number (with precision)', source: 'round(4.345, precision: 2)', returns: '4.35' },
    { title: 'Round up', source: 'round(5.5)', returns: '6.0' },
    { title: 'Round down', source: 'round(5.45)', returns: '5.0' },
  ],
});
