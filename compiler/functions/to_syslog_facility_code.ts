import { defineFunction } from './define.js';
import { K, INTEGER } from '../types/kind.js';

export default defineFunction({
  name: 'to_syslog_facility_code',
  category: 'Convert',
  description: 'Converts a syslog facility keyword, such as `authpriv`, into its code (0 to 23).',
  parameters: [{ name: 'value', kinds: K.Bytes, required: true }],
  fallible: true,
  returns: INTEGER,
  examples: [
    { title: 'Coerce to Syslog facility code', source: 'to_syslog_facility_code!("authpriv")', returns: '10' },
    {
      title: 'invalid',
      source: "to_syslog_facility_code!(s'foobar')",
      raises: 'function call error for "to_syslog_facility_code" at (0:35): syslog facility \'foobar\' not valid',
    },
  ],
});
