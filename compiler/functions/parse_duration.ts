import { defineFunction } from './define.js';
import { K, FLOAT } from '../types/kind.js';

export default defineFunction({
  name: 'parse_duration',
  category: 'Parse',
  description: 'Converts a duration such as `1h30m` or `1s 1ms` into a float count of the given `unit`.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'unit', kinds: K.Bytes, required: true, enum: ['cs', 'd', 'ds', 'h', 'm', 'ms', 'ns', 's', 'us', 'µs'] },
  ],
  fallible: true,
  returns: FLOAT,
  examples: [
    { title: 'Parse duration (milliseconds)', source: 'parse_duration!("1005ms", unit: "s")', returns: '1.005' },
    {
      title: 'Parse multiple durations (seconds & milliseconds)',
      source: 'parse_duration!("1s 1ms", unit: "ms")',
      returns: '1001.0',
    },
  ],
});
