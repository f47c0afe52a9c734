import { defineFunction } from './define.js';
import { K, INTEGER, FLOAT, union } from '../types/kind.js';
import { argKind } from './support/rules.js';

/** Smallest positive normal double: a float modulus must be at least this large to be safe. */
const MIN_NORMAL = 2.2250738585072014e-308;

export default defineFunction({
  name: 'mod',
  category: 'Number',
  description: 'Returns the remainder of dividing `value` by `modulus`; fails on a zero modulus.',
  parameters: [
    { name: 'value', kinds: K.Integer | K.Float, required: true },
    { name: 'modulus', kinds: K.Integer | K.Float, required: true },
  ],
  // Infallible only when the modulus is a literal non-zero integer or normal float.
  fallible: (call) => {
    const modulus = call.args.modulus?.constant;
    if (modulus?.kind === 'integer') return modulus.value === 0n;
    if (modulus?.kind === 'float') return !(Math.abs(modulus.value) >= MIN_NORMAL && Number.isFinite(modulus.value));
    return true;
  },
  // Integer operands give an integer; a float on either side gives a float.
  returns: (call) => {
    const value = argKind(call, 'value').bits;
    const modulus = argKind(call, 'modulus').bits;
    if (value === K.Integer && modulus === K.Integer) return INTEGER;
    return value === K.Float || modulus === K.Float ? FLOAT : union(INTEGER, FLOAT);
  },
  examples: [{ title: 'Calculate the remainder of two integers', source: 'mod(5, 2)', returns: '1' }],
});
