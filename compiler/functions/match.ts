import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'match',
  category: 'String',
  description: 'Tells whether a string matches a regular expression.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'pattern', kinds: K.Regex, required: true },
  ],
  returns: BOOLEAN,
  examples: [
    { title: 'Regex match on a string', source: "match(\"I'm a little teapot\", r'teapot')", returns: 'true' },
    {
      title: 'String does not match the regular expression',
      source: "match(\"I'm a little teapot\", r'.*balloon')",
      returns: 'false',
    },
  ],
});
