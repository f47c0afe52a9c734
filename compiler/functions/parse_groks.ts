import { defineFunction } from './define.js';
import { K, ANY, objectOf } from '../types/kind.js';

export default defineFunction({
  name: 'parse_groks',
  category: 'Parse',
  description:
    'Tries several grok patterns in order and returns the fields captured by the first that matches. `aliases` and the JSON files in `alias_sources` define extra named patterns; all are fixed at compile time.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'patterns', kinds: K.Array, required: true, literal: true },
    { name: 'aliases', kinds: K.Object, required: false, default: '{  }', literal: true },
    { name: 'alias_sources', kinds: K.Array, required: false, default: '[]', literal: true },
  ],
  fallible: true,
  returns: objectOf(ANY),
  backing: { kind: 'js', library: 'RegExp' },
  examples: [
    {
      title: 'Parse using multiple Grok patterns',
      source: `parse_groks!(
    "2020-10-02T23:22:12.223222Z info Hello world",
    patterns: [
        "%{common_prefix} %{_status} %{_message}",
        "%{common_prefix} %{_message}",
    ],
    aliases: {
        "common_prefix": "%{_timestamp} %{_loglevel}",
        "_timestamp": "%{TIMESTAMP_ISO8601:timestamp}",
        "_loglevel": "%{LOGLEVEL:level}",
        "_status": "%{POSINT:status}",
        "_message": "%{GREEDYDATA:message}"
    }
)
`,
      returns: '{ "timestamp": "2020-10-02T23:22:12.223222Z", "level": "info", "message": "Hello world" }',
    },
    {
      title: 'Parse using aliases from file',
      source: `parse_groks!(
  "username=foo",
  patterns: [ "%{PATTERN_A}" ],
  alias_sources: [ "tests/data/grok/aliases.json" ]
)
# aliases.json contents:
# {
#   "PATTERN_A": "%{PATTERN_B}",
#   "PATTERN_B": "username=%{USERNAME:username}"
# }
`,
      returns: '{ "username": "foo" }',
    },
  ],
});
