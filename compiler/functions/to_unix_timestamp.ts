import { defineFunction } from './define.js';
import { K, INTEGER } from '../types/kind.js';

export default defineFunction({
  name: 'to_unix_timestamp',
  category: 'Convert',
  description:
    'Converts a timestamp into the number of seconds, milliseconds, microseconds or nanoseconds since the Unix epoch.',
  parameters: [
    { name: 'value', kinds: K.Timestamp, required: true },
    {
      name: 'unit',
      kinds: K.Bytes,
      required: false,
      default: 'seconds',
      enum: ['microseconds', 'milliseconds', 'nanoseconds', 'seconds'],
    },
  ],
  returns: INTEGER,
  examples: [
    {
      title: 'Convert to a Unix timestamp (seconds)',
      source: "to_unix_timestamp(t'2021-01-01T00:00:00+00:00')",
      returns: '1609459200',
    },
    {
      title: 'Convert to a Unix timestamp (milliseconds)',
      source: 'to_unix_timestamp(t\'2021-01-01T00:00:00Z\', unit: "milliseconds")',
      returns: '1609459200000',
    },
    {
      title: 'Convert to a Unix timestamp (microseconds)',
      source: 'to_unix_timestamp(t\'2021-01-01T00:00:00Z\', unit: "microseconds")',
      returns: '1609459200000000',
    },
    {
      title: 'Convert to a Unix timestamp (nanoseconds)',
      source: 'to_unix_timestamp(t\'2021-01-01T00:00:00Z\', unit: "nanoseconds")',
      returns: '1609459200000000000',
    },
  ],
});
