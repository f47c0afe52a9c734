import { defineFunction, type CallInfo, type ArgumentError } from './define.js';
import { K, BYTES } from '../types/kind.js';
import { constantInteger } from './support/rules.js';
import { invalidArgument } from './support/arguments.js';

const MAX_LENGTH = 64n * 1024n;

/** A literal length is checked here, and then the call cannot fail; any other is checked at run time. */
function validateLength(call: CallInfo): ArgumentError | undefined {
  const length = constantInteger(call.args.length);
  if (length === undefined) return undefined;
  if (length < 0n) return invalidArgument('length', String(length), 'Length cannot be negative');
  if (length > MAX_LENGTH) return invalidArgument('length', String(length), 'Length is too large. Maximum is 64k');
  return undefined;
}

export default defineFunction({
  name: 'random_bytes',
  category: 'Random',
  description: 'Returns a string of `length` random bytes (at most 64 KiB).',
  parameters: [{ name: 'length', kinds: K.Integer, required: true }],
  fallible: (call) => constantInteger(call.args.length) === undefined,
  returns: BYTES,
  validate: validateLength,
  pure: false,
  examples: [
    {
      title: 'Generate random base 64 encoded bytes',
      source: 'encode_base64(random_bytes(16))',
      mode: 'type',
      returns: '"LNu0BBgUbh7XAlXbjSOomQ=="',
    },
    { title: 'Generate 16 random bytes', source: 'length(random_bytes(16))', returns: '16' },
  ],
});
