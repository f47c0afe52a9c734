import { defineFunction } from './define.js';
import { K, INTEGER, NULL, union } from '../types/kind.js';

export default defineFunction({
  name: 'find',
  category: 'String',
  description:
    'Returns the byte position of the first match of a string or regular expression in a string, searching from position `from`; null when there is none.',
  parameters: [
    { name: 'value', kinds: K.Bytes, required: true },
    { name: 'pattern', kinds: K.Bytes | K.Regex, required: true },
    { name: 'from', kinds: K.Integer, required: false, default: '0' },
  ],
  returns: union(INTEGER, NULL),
  examples: [
    { title: 'Match text', source: 'find("foobar", "bar")', returns: '3' },
    { title: 'Match text at start', source: 'find("foobar", "foo")', returns: '0' },
    { title: 'Match regex', source: 'find("foobar", r\'b.r\')', returns: '3' },
    { title: 'No matches', source: 'find("foobar", "baz")', returns: 'null' },
    { title: 'With an offset', source: 'find("foobarfoobarfoo", "bar", 4)', returns: '9' },
  ],
});
