import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'to_syslog_facility',
  category: 'Convert',
  description: 'Converts a syslog facility code (0 to 23) into its keyword, such as `kern` or `auth`.',
  parameters: [{ name: 'value', kinds: K.Integer, required: true }],
  fallible: true,
  returns: BYTES,
  examples: [
    { title: 'Coerce to a Syslog facility', source: 'to_syslog_facility!(4)', returns: '"auth"' },
    {
      title: 'invalid',
      source: 'to_syslog_facility!(500)',
      raises: 'function call error for "to_syslog_facility" at (0:24): facility code 500 not valid',
    },
  ],
});
