import { defineFunction } from './define.js';
import { TIMESTAMP } from '../types/kind.js';

export default defineFunction({
  name: 'now',
  category: 'Timestamp',
  description: 'Returns the current time in UTC, with nanosecond precision.',
  parameters: [],
  returns: TIMESTAMP,
  pure: false,
  examples: [
    {
      title: 'Generate a current timestamp',
      source: 'now()',
      mode: 'type',
      returns: '"2012-03-04T12:34:56.789012345Z"',
    },
  ],
});
