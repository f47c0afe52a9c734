import { defineFunction } from './define.js';
import { K, BYTES } from '../types/kind.js';

export default defineFunction({
  name: 'replace',
  category: 'String',
  description:
    'Replaces matches of a string or regular expression with another string, at most `count` times (all by default). In the replacement, `$name` and `$1` insert capture groups.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'pattern', kinds: K.Bytes | K.Regex, required: true },
    { name: 'with', kinds: K.Bytes, required: true },
    { name: 'count', kinds: K.Integer, required: false, default: '-1' },
  ],
  returns: BYTES,
  examples: [
    {
      title: 'Replace literal text',
      source: 'replace("Apples and Bananas", "and", "not")',
      returns: '"Apples not Bananas"',
    },
    {
      title: 'Replace using regular expression',
      source: 'replace("Apples and Bananas", r\'(?i)bananas\', "Pineapples")',
      returns: '"Apples and Pineapples"',
    },
    {
      title: 'Replace first instance',
      source: 'replace("Bananas and Bananas", "Bananas", "Pineapples", count: 1)',
      returns: '"Pineapples and Bananas"',
    },
    {
      title: 'Replace with capture groups',
      source: `# Note that in the context of Vector configuration files, an extra \`$\` escape character is required
# (i.e. \`$$num\`) to avoid interpreting \`num\` as an environment variable.
replace("foo123bar", r'foo(?P<num>\\d+)bar', "$num")
`,
      returns: '"123"',
    },
    { title: 'Replace all', source: 'replace("foobar", "o", "i")', returns: '"fiibar"' },
  ],
});
