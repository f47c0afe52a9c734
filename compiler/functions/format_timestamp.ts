import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'format_timestamp',
  category: 'Timestamp',
  description: 'Writes a timestamp with a strftime-style format, in the given time zone or else in UTC.',
  parameters: [
    { name: 'value', kinds: K.Timestamp, required: true },
    { name: 'format', kinds: K.Bytes, required: true },
    { name: 'timezone', kinds: K.Bytes, required: false },
  ],
  fallible: true,
  returns: BYTES,
  backing: { kind: 'js', library: 'Intl (time zones)' },
  examples: [
    {
      title: 'Format a timestamp (ISO8601/RFC 3339)',
      source: 'format_timestamp!(t\'2020-10-21T16:00:00Z\', format: "%+")',
      returns: '"2020-10-21T16:00:00+00:00"',
    },
    {
      title: 'Format a timestamp (custom)',
      source: 'format_timestamp!(t\'2020-10-21T16:00:00Z\', format: "%v %R")',
      returns: '"21-Oct-2020 16:00"',
    },
    {
      title: 'Format a timestamp with custom format string',
      source: 'format_timestamp!(t\'2021-02-10T23:32:00+00:00\', format: "%d %B %Y %H:%M")',
      returns: '"10 February 2021 23:32"',
    },
    {
      title: 'Format a timestamp with timezone conversion',
      source: 'format_timestamp!(t\'2021-02-10T23:32:00+00:00\', format: "%d %B %Y %H:%M", timezone: "Europe/Berlin")',
      returns: '"11 February 2021 00:32"',
    },
  ],
});
