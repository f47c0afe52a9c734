import { defineFunction, type CallInfo, type ArgumentError } from './define.js';
import { invalidArgument } from './support/arguments.js';
import { K, BYTES, arrayOf } from '../types/kind.js';
import { constantInteger } from './support/rules.js';

/** A literal chunk size below one is rejected at compile time. */
function validateChunkSize(call: CallInfo): ArgumentError | undefined {
  const size = constantInteger(call.args.chunk_size);
  if (size === undefined || size >= 1n) return undefined;
  return invalidArgument('chunk_size', String(size), '"chunk_size" must be at least 1 byte');
}

export default defineFunction({
  name: 'chunks',
  category: 'Array',
  description:
    'Splits a string into consecutive pieces of at most `chunk_size` bytes. Pieces may cut a multi-byte character in two.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'chunk_size', kinds: K.Integer, required: true },
  ],
  // A literal size is checked here; any other expression is checked at run time.
  fallible: (call) => call.args.chunk_size?.constant === undefined,
  returns: arrayOf(BYTES),
  validate: validateChunkSize,
  examples: [
    { title: 'Split a string into chunks', source: 'chunks("abcdefgh", 4)', returns: '["abcd", "efgh"]' },
    {
      title: 'Chunks do not respect unicode code point boundaries',
      source: 'chunks("ab你好", 4)',
      returns: '["ab�", "�好"]',
    },
  ],
});
