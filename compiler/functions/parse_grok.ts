import { defineFunction } from './define.js';
import { K, ANY, objectOf } from '../types/kind.js';

export default defineFunction({
  name: 'parse_grok',
  category: 'Parse',
  description:
    'Matches a string against a grok pattern (named building blocks such as `%{IP:client}`) and returns the captured fields. The pattern is compiled with the program, so it must be a literal.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'pattern', kinds: K.Bytes, required: true, literal: true },
  ],
  fallible: true,
  returns: objectOf(ANY),
  backing: { kind: 'js', library: 'RegExp' },
  examples: [
    {
      title: 'Parse using Grok',
      source: `value = "2020-10-02T23:22:12.223222Z info Hello world"
pattern = "%{TIMESTAMP_ISO8601:timestamp} %{LOGLEVEL:level} %{GREEDYDATA:message}"

parse_grok!(value, pattern)
`,
      returns: '{ "timestamp": "2020-10-02T23:22:12.223222Z", "level": "info", "message": "Hello world" }',
    },
  ],
});
