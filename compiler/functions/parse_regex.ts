import { defineFunction } from './define.js';
import { K } from '../types/kind.js';
import { constantGroups, captureObject } from './support/regex-groups.js';

export default defineFunction({
  name: 'parse_regex',
  category: 'Parse',
  description:
    'Matches a regular expression against a string and returns the first match as an object of its named groups, plus its numbered groups with `numeric_groups`. Fails when nothing matches.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    // Any regex expression since VRL 0.34; the kinds of its groups are known when it is a constant.
    { name: 'pattern', kinds: K.Regex, required: true },
    { name: 'numeric_groups', kinds: K.Boolean, required: false, default: 'false' },
  ],
  fallible: true,
  returns: (call) => captureObject(constantGroups(call.args.pattern)),
  examples: [
    {
      title: 'Parse using Regex (with capture groups)',
      source: 'parse_regex!("first group and second group.", r\'(?P<number>.*?) group\')',
      returns: '{ "number": "first" }',
    },
    {
      title: 'Parse using Regex (without capture groups)',
      source: 'parse_regex!("first group and second group.", r\'(\\w+) group\', numeric_groups: true)',
      returns: '{ "0": "first group", "1": "first" }',
    },
    {
      title: 'Parse using Regex with simple match',
      source: 'parse_regex!("8.7.6.5 - zorp", r\'^(?P<host>[\\w\\.]+) - (?P<user>[\\w]+)\')',
      returns: '{ "host": "8.7.6.5", "user": "zorp" }',
    },
    {
      title: 'Parse using Regex with all numeric groups',
      source: 'parse_regex!("8.7.6.5 - zorp", r\'^(?P<host>[\\w\\.]+) - (?P<user>[\\w]+)\', numeric_groups: true)',
      returns: '{ "0": "8.7.6.5 - zorp", "1": "8.7.6.5", "2": "zorp", "host": "8.7.6.5", "user": "zorp" }',
    },
    {
      title: 'Parse using Regex with variables',
      source: `variable = r'^(?P<host>[\\w\\.]+) - (?P<user>[\\w]+)';
parse_regex!("8.7.6.5 - zorp", variable)
`,
      returns: '{ "host": "8.7.6.5", "user": "zorp" }',
    },
  ],
});
