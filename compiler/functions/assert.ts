import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'assert',
  category: 'Debug',
  description:
    'Aborts the program when `condition` is false, with `message` as the error when given; returns true otherwise.',
  parameters: [
    { name: 'condition', kinds: K.Boolean, required: true },
    { name: 'message', kinds: K.Bytes, required: false },
  ],
  fallible: true,
  returns: BOOLEAN,
  pure: false,
  examples: [
    {
      title: 'Assertion (true) - with message',
      source: 'assert!("foo" == "foo", message: "\\"foo\\" must be \\"foo\\"!")',
      returns: 'true',
    },
    {
      title: 'Assertion (false) - with message',
      source: 'assert!("foo" == "bar", message: "\\"foo\\" must be \\"foo\\"!")',
      raises: 'function call error for "assert" at (0:60): "foo" must be "foo"!',
    },
    {
      title: 'Assertion (false) - simple',
      source: 'assert!(false)',
      raises: 'function call error for "assert" at (0:14): assertion failed',
    },
  ],
});
