import { defineFunction } from './define.js';
import { K, INTEGER } from '../types/kind.js';

export default defineFunction({
  name: 'seahash',
  category: 'Cryptography',
  description: 'Computes the SeaHash of a string, as a signed 64-bit integer.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  backing: { kind: 'js', library: 'runtime/seahash.ts' },
  returns: INTEGER,
  examples: [
    { title: 'Calculate seahash', source: 'seahash("foobar")', returns: '5348458858952426560' },
    { title: 'Calculate negative seahash', source: 'seahash("bar")', returns: '-2796170501982571315' },
  ],
});
