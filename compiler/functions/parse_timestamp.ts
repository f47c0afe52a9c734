import { defineFunction } from './define.js';
import { K, TIMESTAMP } from '../types/kind.js';

export default defineFunction({
  name: 'parse_timestamp',
  category: 'Parse',
  description:
    'Reads a timestamp from a string with a strftime-style `format`; `timezone` applies when the text carries no offset. A timestamp passes through unchanged.',
  parameters: [
    { name: 'value', kinds: K.Bytes | K.Timestamp, required: true },
    { name: 'format', kinds: K.Bytes, required: true },
    { name: 'timezone', kinds: K.Bytes, required: false },
  ],
  fallible: true,
  returns: TIMESTAMP,
  backing: { kind: 'js', library: 'Intl (time zones)' },
  examples: [
    {
      title: 'Parse timestamp',
      source: 'parse_timestamp!("10-Oct-2020 16:00+00:00", format: "%v %R %:z")',
      returns: "t'2020-10-10T16:00:00Z'",
    },
    {
      title: 'Parse timestamp with timezone',
      source: 'parse_timestamp!("16/10/2019 12:00:00", format: "%d/%m/%Y %H:%M:%S", timezone: "Asia/Taipei")',
      returns: "t'2019-10-16T04:00:00Z'",
    },
  ],
});
