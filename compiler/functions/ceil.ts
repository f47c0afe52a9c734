import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { numericResult } from './support/rules.js';

export default defineFunction({
  name: 'ceil',
  category: 'Number',
  description:
    'Rounds a number up, to `precision` decimal places when given. An integer comes back unchanged; a float stays a float.',
  parameters: [
    { name: 'value', kinds: K.Integer | K.Float, required: true },
    { name: 'precision', kinds: K.Integer, required: false, default: '0' },
  ],
  returns: numericResult,
  examples: [
    { title: 'Round a number up (without precision)', source: 'ceil(4.345)', returns: '5.0' },
    { title: 'Round a number up (with precision)', source: 'ceil(4.345, precision: 2)', returns: '4.35' },
    { title: 'Round an integer up (noop)', source: 'ceil(5)', returns: '5' },
  ],
});
