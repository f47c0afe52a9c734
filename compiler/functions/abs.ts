import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { numericResult } from './support/rules.js';

export default defineFunction({
  name: 'abs',
  category: 'Number',
  description: 'Returns the absolute value of an integer or a float.',
  parameters: [{ name: 'value', kinds: K.Integer | K.Float, required: true }],
  returns: numericResult,
  examples: [
    { title: 'Computes the absolute value of an integer', source: 'abs(-42)', returns: '42' },
    { title: 'Computes the absolute value of a float', source: 'abs(-42.2)', returns: '42.2' },
    { title: 'Computes the absolute value of a positive integer', source: 'abs(10)', returns: '10' },
  ],
});
