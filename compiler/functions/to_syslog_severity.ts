import { defineFunction } from './define.js';
import { K, INTEGER } from '../types/kind.js';

export default defineFunction({
  name: 'to_syslog_severity',
  category: 'Convert',
  description:
    'Converts a syslog severity keyword into its code (0 to 7); the old keywords `panic`, `error` and `warn` are accepted.',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: INTEGER,
  examples: [
    { title: 'Coerce to Syslog severity', source: 'to_syslog_severity!("alert")', returns: '1' },
    {
      title: 'invalid',
      source: "to_syslog_severity!(s'foobar')",
      raises: 'function call error for "to_syslog_severity" at (0:30): syslog level foobar not valid',
    },
  ],
});
