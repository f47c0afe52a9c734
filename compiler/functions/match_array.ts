import { defineFunction } from './define.js';
import { K, BOOLEAN } from '../types/kind.js';

export default defineFunction({
  name: 'match_array',
  category: 'Enumerate',
  description: 'Tells whether any item of an array (or, with `all`, every item) matches a regular expression.',
  parameters: [
    { name: 'value', kinds: K.Array, required: true },
    { name: 'pattern', kinds: K.Regex, required: true },
    { name: 'all', kinds: K.Boolean, required: false, default: 'false' },
  ],
  returns: BOOLEAN,
  examples: [
    { title: 'Match at least one element', source: 'match_array(["foobar", "bazqux"], r\'foo\')', returns: 'true' },
    {
      title: 'Match all elements',
      source: 'match_array(["foo", "foobar", "barfoo"], r\'foo\', all: true)',
      returns: 'true',
    },
    { title: 'No matches', source: 'match_array(["bazqux", "xyz"], r\'foo\')', returns: 'false' },
    {
      title: 'Not all elements match',
      source: 'match_array(["foo", "foobar", "baz"], r\'foo\', all: true)',
      returns: 'false',
    },
  ],
});
