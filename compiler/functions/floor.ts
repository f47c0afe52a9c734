import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { numericResult } from './support/rules.js';

export default defineFunction({
  name: 'floor',
  category: 'Number',
  description:
    'Rounds a number down, to `precision` decimal places when given. An integer comes back unchanged; a float stays a float.',
  parameters: [
    { name: 'value', kinds: K.Integer | K.Float, required: true },
    { name: 'precision', kinds: K.Integer, required: false, default: '0' },
  ],
  returns: numericResult,
  examples: [
    { title: 'Round a number down (without precision)', source: 'floor(9.8)', returns: '9.0' },
    { title: 'Round a number down (with precision)', source: 'floor(4.345, precision: 2)', returns: '4.34' },
  ],
});
