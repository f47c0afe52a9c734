import { defineFunction, type CallInfo, type ArgumentError } from './define.js';
import { K, FLOAT } from '../types/kind.js';
import { invalidArgument } from './support/arguments.js';

const constantFloat = (call: CallInfo, name: string): number | undefined => {
  const constant = call.args[name]?.constant;
  return constant?.kind === 'float' ? constant.value : undefined;
};

/** Literal bounds are checked here, and then the call cannot fail; others are checked at run time. */
function validateBounds(call: CallInfo): ArgumentError | undefined {
  const min = constantFloat(call, 'min');
  const max = constantFloat(call, 'max');
  if (min === undefined || max === undefined || max > min) return undefined;
  // VRL prints the float as Rust does: `0`, not `0.0`.
  return invalidArgument('max', String(max), 'max must be greater than min');
}

export default defineFunction({
  name: 'random_float',
  category: 'Random',
  description: 'Returns a random float from `min` (included) to `max` (excluded).',
  parameters: [
    { name: 'min', kinds: K.Float, required: true },
    { name: 'max', kinds: K.Float, required: true },
  ],
  fallible: (call) => constantFloat(call, 'min') === undefined || constantFloat(call, 'max') === undefined,
  returns: FLOAT,
  validate: validateBounds,
  pure: false,
  examples: [
    {
      title: 'Random float from 0.0 to 10.0, not including 10.0',
      source: `f = random_float(0.0, 10.0)
f >= 0 && f < 10
`,
      returns: 'true',
    },
  ],
});
