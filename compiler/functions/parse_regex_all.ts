import { defineFunction } from './define.js';
import { K, ANY_BITS, NULL, arrayOf, union } from '../types/kind.js';
import { constantGroups, captureObject } from './support/regex-groups.js';

export default defineFunction({
  name: 'parse_regex_all',
  category: 'Parse',
  description:
    'Like parse_regex but returns every non-overlapping match, as an array of objects; the array is empty when nothing matches.',
  parameters: [
    { name: 'value', kinds: ANY_BITS, required: true },
    // Any regex expression, as parse_regex; the kinds of its groups are known when it is a constant.
    { name: 'pattern', kinds: K.Regex, required: true },
    { name: 'numeric_groups', kinds: K.Boolean, required: false, default: 'false' },
  ],
  fallible: true,
  // VRL types each item as the match object or null.
  returns: (call) => arrayOf(union(captureObject(constantGroups(call.args.pattern)), NULL)),
  examples: [
    {
      title: 'Parse using Regex (all matches)',
      source: 'parse_regex_all!("first group and second group.", r\'(?P<number>\\w+) group\', numeric_groups: true)',
      returns:
        '[{ "number": "first", "0": "first group", "1": "first" }, { "number": "second", "0": "second group", "1": "second" }]',
    },
    {
      title: 'Parse using Regex (simple match)',
      source: 'parse_regex_all!("apples and carrots, peaches and peas", r\'(?P<fruit>[\\w\\.]+) and (?P<veg>[\\w]+)\')',
      returns: '[{ "fruit": "apples", "veg": "carrots" }, { "fruit": "peaches", "veg": "peas" }]',
    },
    {
      title: 'Parse using Regex (all numeric groups)',
      source:
        'parse_regex_all!("apples and carrots, peaches and peas", r\'(?P<fruit>[\\w\\.]+) and (?P<veg>[\\w]+)\', numeric_groups: true)',
      returns:
        '[{ "fruit": "apples", "veg": "carrots", "0": "apples and carrots", "1": "apples", "2": "carrots" }, { "fruit": "peaches", "veg": "peas", "0": "peaches and peas", "1": "peaches", "2": "peas" }]',
    },
    {
      title: 'Parse using Regex with variables',
      source: `variable = r'(?P<fruit>[\\w\\.]+) and (?P<veg>[\\w]+)';
parse_regex_all!("apples and carrots, peaches and peas", variable)
`,
      returns: '[{ "fruit": "apples", "veg": "carrots" }, { "fruit": "peaches", "veg": "peas" }]',
    },
  ],
});
