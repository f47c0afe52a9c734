import { defineFunction } from './define.js';
import { K, ANY_BITS, NULL } from '../types/kind.js';

export default defineFunction({
  name: 'log',
  category: 'Debug',
  description:
    "Writes a value to the service's own log at the given level, at most once per `rate_limit_secs` seconds for the same call site; returns null.",
  parameters: [
    { name: 'value', kinds: ANY_BITS, required: true },
    {
      name: 'level',
      kinds: K.Bytes,
      required: false,
      default: 'info',
      enum: ['debug', 'error', 'info', 'trace', 'warn'],
    },
    { name: 'rate_limit_secs', kinds: K.Integer, required: false, default: '1' },
  ],
  returns: NULL,
  pure: false,
  examples: [
    { title: 'Log a message', source: 'log("Hello, World!", level: "info", rate_limit_secs: 60)', returns: 'null' },
    {
      title: 'Log an error',
      source: `. = { "field": "not an integer" }
_, err = to_int(.field)
if err != null {
    log(err, level: "error")
}
`,
      returns: 'null',
    },
  ],
});
