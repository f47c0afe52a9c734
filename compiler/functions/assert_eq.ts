import { defineFunction } from './define.js';
import { K, ANY_BITS, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'assert_eq',
  category: 'Debug',
  description:
    'Aborts the program when `left` and `right` are not equal, with `message` as the error when given; returns true otherwise.',
  parameters: [
    { name: 'left', kinds: ANY_BITS, required: true },
    { name: 'right', kinds: ANY_BITS, required: true },
    { name: 'message', kinds: K.Bytes, required: false },
  ],
  fallible: true,
  returns: BOOLEAN,
  pure: false,
  examples: [
    { title: 'Successful assertion', source: 'assert_eq!(1, 1)', returns: 'true' },
    {
      title: 'Unsuccessful assertion',
      source: 'assert_eq!(127, [1, 2, 3])',
      raises: 'function call error for "assert_eq" at (0:26): assertion failed: 127 == [1, 2, 3]',
    },
    {
      title: 'Unsuccessful assertion with custom log message',
      source: 'assert_eq!(1, 0, message: "Unequal integers")',
      raises: 'function call error for "assert_eq" at (0:45): Unequal integers',
    },
  ],
});
