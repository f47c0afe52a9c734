import { defineFunction, type CallInfo, type ArgumentError } from './define.js';
import { K, INTEGER } from '../types/kind.js';
import { constantInteger } from './support/rules.js';
import { invalidArgument } from './support/arguments.js';

/** Literal bounds are checked here, and then the call cannot fail; others are checked at run time. */
function validateBounds(call: CallInfo): ArgumentError | undefined {
  const min = constantInteger(call.args.min);
  const max = constantInteger(call.args.max);
  if (min === undefined || max === undefined || max > min) return undefined;
  return invalidArgument('max', String(max), 'max must be greater than min');
}

export default defineFunction({
  name: 'random_int',
  category: 'Random',
  description: 'Returns a random integer from `min` (included) to `max` (excluded).',
  parameters: [
    { name: 'min', kinds: K.Integer, required: true },
    { name: 'max', kinds: K.Integer, required: true },
  ],
  fallible: (call) => constantInteger(call.args.min) === undefined || constantInteger(call.args.max) === undefined,
  returns: INTEGER,
  validate: validateBounds,
  pure: false,
  examples: [
    {
      title: 'Random integer from 0 to 10, not including 10',
      source: `i = random_int(0, 10)
i >= 0 && i < 10
`,
      returns: 'true',
    },
  ],
});
