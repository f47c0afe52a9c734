import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'to_syslog_level',
  category: 'Convert',
  description: 'Converts a syslog severity code (0 to 7) into its keyword, such as `emerg` or `notice`.',
  parameters: [{ name: 'value', kinds: K.Integer, required: true }],
  fallible: true,
  returns: BYTES,
  examples: [
    { title: 'Coerce to a Syslog level', source: 'to_syslog_level!(5)', returns: '"notice"' },
    {
      title: 'invalid',
      source: 'to_syslog_level!(500)',
      raises: 'function call error for "to_syslog_level" at (0:21): severity level 500 not valid',
    },
  ],
});
