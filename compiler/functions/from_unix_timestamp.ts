import { defineFunction } from './define.js';
import { K, TIMESTAMP } from '../types/kind.js';

export default defineFunction({
  name: 'from_unix_timestamp',
  category: 'Convert',
  description:
    'Converts a Unix time counted in seconds (by default), milliseconds, microseconds or nanoseconds into a timestamp.',
  parameters: [
    { name: 'value', kinds: K.Integer, required: true },
    {
      name: 'unit',
      kinds: K.Bytes,
      required: false,
      default: 'seconds',
      enum: ['microseconds', 'milliseconds', 'nanoseconds', 'seconds'],
    },
  ],
  fallible: true,
  returns: TIMESTAMP,
  examples: [
    {
      title: 'Convert from a Unix timestamp (seconds)',
      source: 'from_unix_timestamp!(5)',
      returns: "t'1970-01-01T00:00:05Z'",
    },
    {
      title: 'Convert from a Unix timestamp (milliseconds)',
      source: 'from_unix_timestamp!(5000, unit: "milliseconds")',
      returns: "t'1970-01-01T00:00:05Z'",
    },
    {
      title: 'Convert from a Unix timestamp (microseconds)',
      source: 'from_unix_timestamp!(5000, unit: "microseconds")',
      returns: "t'1970-01-01T00:00:00.005Z'",
    },
    {
      title: 'Convert from a Unix timestamp (nanoseconds)',
      source: 'from_unix_timestamp!(5000, unit: "nanoseconds")',
      returns: "t'1970-01-01T00:00:00.000005Z'",
    },
  ],
});
